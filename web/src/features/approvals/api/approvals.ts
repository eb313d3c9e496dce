import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApprovalDecideRequest,
  ApprovalDecideResponse,
  ApprovalDetailResponse,
  ApprovalSettingsResponse,
  ApprovalsListResponse,
  ApprovalStatus,
  UpdateApprovalSettingsRequest,
  UpdateApprovalSettingsResponse,
} from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { approvalsQueryKey } from '@/lib/query-keys';

export const APPROVALS_PAGE_SIZE = 25;

const listKey = (status: ApprovalStatus, page: number) => [...approvalsQueryKey, 'list', status, page] as const;
const detailKey = (requestId: string) => [...approvalsQueryKey, 'detail', requestId] as const;
const approvalSettingsQueryKey = [...approvalsQueryKey, 'settings'] as const;

/** GET /_api/approvals/list: one status, one page, and how many requests wait for the caller's decision. */
function listApprovals(status: ApprovalStatus, page: number, pageSize: number, signal?: AbortSignal): Promise<ApprovalsListResponse> {
  const query = new URLSearchParams({ status, page: String(page), pageSize: String(pageSize) });
  return apiRequest<ApprovalsListResponse>(`/_api/approvals/list?${query.toString()}`, { signal });
}

export function useApprovalsList(status: ApprovalStatus, page: number, enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: listKey(status, page),
      queryFn: ({ signal }) => listApprovals(status, page, APPROVALS_PAGE_SIZE, signal),
      placeholderData: keepPreviousData,
      staleTime: 15_000,
      enabled,
    }),
  );
}

/** The navigation's badge: pending requests the signed-in administrator may decide. Checked every minute. */
export function useApprovalsWaitingCount(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: [...approvalsQueryKey, 'waiting'] as const,
      queryFn: ({ signal }) => listApprovals('pending', 1, 1, signal),
      select: (answer) => answer.waitingForYou,
      staleTime: 30_000,
      refetchInterval: 60_000,
      enabled,
    }),
  );
}

/** GET /_api/approvals/detail?requestId= */
export function useApprovalDetail(requestId: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: detailKey(requestId ?? ''),
      queryFn: ({ signal }) =>
        apiRequest<ApprovalDetailResponse>(`/_api/approvals/detail?requestId=${encodeURIComponent(requestId ?? '')}`, { signal }),
      enabled: requestId !== undefined && requestId !== '',
      staleTime: 0,
    }),
  );
}

/**
 * POST /_api/approvals/decide. Approving needs a fresh code of the approver's own second factor: the call goes
 * without any kept token, the server answers MFA_REQUIRED (operation APPROVE_REQUEST) and the api client asks for
 * the code and sends the same call again with it. The code is never kept (lib/system-mfa refuses to keep a token
 * for APPROVE_REQUEST), so every approval asks again.
 */
function decideApproval(body: Omit<ApprovalDecideRequest, 'mfaToken'>): Promise<ApprovalDecideResponse> {
  return apiRequest<ApprovalDecideResponse>('/_api/approvals/decide', { body });
}

export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideApproval,
    meta: { handlesError: true },
    onSuccess: (answer) => {
      queryClient.setQueryData<ApprovalDetailResponse>(detailKey(answer.request.requestId), { request: answer.request });
    },
    // The lists, the badge, and whatever the approved action changed (a matter, the team, the flags) are read again.
    onSettled: () => queryClient.invalidateQueries(),
  });
}

/** GET /_api/settings/approvals (administrators). */
export function useApprovalSettings(enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: approvalSettingsQueryKey,
      queryFn: ({ signal }) => apiRequest<ApprovalSettingsResponse>('/_api/settings/approvals', { signal }),
      staleTime: 0,
      enabled,
    }),
  );
}

/**
 * POST /_api/settings/approvals. Needs a fresh second-factor code (MFA_ORGANIZATION_SETTINGS: the api client asks).
 * Once any rule is on, the change is itself governed: the answer is 202 and the api client shows the waiting dialog.
 */
function updateApprovalSettings(body: Omit<UpdateApprovalSettingsRequest, 'mfaToken'>): Promise<UpdateApprovalSettingsResponse> {
  return apiRequest<UpdateApprovalSettingsResponse>('/_api/settings/approvals', { body });
}

export function useUpdateApprovalSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApprovalSettings,
    meta: { handlesError: true },
    onSuccess: (answer) => queryClient.setQueryData(approvalSettingsQueryKey, answer.settings),
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalsQueryKey }),
  });
}
