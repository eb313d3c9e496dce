import { useSyncExternalStore } from 'react';
import { APPROVAL_MSG, type ApprovalRequiredResponse } from '@strongroom/contracts';
import { ApiError } from './api-error';

/**
 * A governed call answered 202 APPROVAL_REQUIRED: nothing changed yet, another administrator must approve the
 * request first. The api client turns that answer into this error (never a success), so no screen reports the
 * action as done, and announces it here; the app's waiting dialog (features/approvals) shows the newest one.
 */
export class ApprovalRequiredError extends ApiError {
  readonly answer: ApprovalRequiredResponse;

  constructor(answer: ApprovalRequiredResponse) {
    super({ status: 202, code: 'APPROVAL_REQUIRED', message: answer.message || APPROVAL_MSG.waiting, details: answer });
    this.name = 'ApprovalRequiredError';
    this.answer = answer;
  }
}

export function isApprovalRequiredError(error: unknown): error is ApprovalRequiredError {
  return error instanceof ApprovalRequiredError;
}

/** Whether an answer (its status and body) is the 202 of a governed call. */
export function readApprovalRequired(status: number, body: unknown): ApprovalRequiredResponse | null {
  if (status !== 202 || typeof body !== 'object' || body === null) return null;
  const b = body as Partial<ApprovalRequiredResponse>;
  if (b.code !== 'APPROVAL_REQUIRED' && b.approvalRequired !== true) return null;
  if (typeof b.requestId !== 'string' || typeof b.preview !== 'object' || b.preview === null) return null;
  return body as ApprovalRequiredResponse;
}

type Listener = () => void;

let current: ApprovalRequiredResponse | null = null;
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of listeners) l();
}

/** Shows the waiting dialog for this request (the newest replaces any still shown). */
export function announceApprovalRequired(answer: ApprovalRequiredResponse): void {
  current = answer;
  emit();
}

export function dismissApprovalWaiting(): void {
  if (current === null) return;
  current = null;
  emit();
}

export function getApprovalWaiting(): ApprovalRequiredResponse | null {
  return current;
}

function subscribeApprovalWaiting(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The request the waiting dialog shows now, or null. */
export function useApprovalWaiting(): ApprovalRequiredResponse | null {
  return useSyncExternalStore(subscribeApprovalWaiting, getApprovalWaiting, getApprovalWaiting);
}
