/**
 * The document at GET /_api/openapi.json is what client generators and the security suites read: it must pass
 * Redocly's `recommended` ruleset without an error, and every operation must say what it is (operationId,
 * summary), what it needs (security) and how it can fail (a 4xx answer with the error shape).
 * The app is built with a web app present, so the document is checked in its fullest form.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

type Operation = {
  operationId?: string;
  summary?: string;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: { securitySchemes?: Record<string, unknown> } };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The warnings the document keeps, with the reason. */
const ACCEPTED_WARNINGS: Record<string, string> = {
  'info-license': 'the project publishes no license to name',
};

let t: TestApp;
let source: string;
let doc: Document;
let webDist: string;

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  // A real server address: the document lists APP_URL as its server, and linting flags a localhost one.
  t = await createTestApp({ APP_URL: 'https://archive.strongroom.test' }, { webDist });
  const res = await t.app.inject({ method: 'GET', url: '/_api/openapi.json' });
  expect(res.statusCode).toBe(200);
  source = res.body;
  doc = res.json();
});
afterAll(async () => {
  await t?.shutdown();
  fs.rmSync(webDist, { recursive: true, force: true });
});

function operations(): Array<[string, Operation]> {
  const out: Array<[string, Operation]> = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (METHODS.includes(method)) out.push([`${method.toUpperCase()} ${p}`, op]);
  }
  return out;
}

function describeProblem(p: NormalizedProblem): string {
  const where = p.location.map((l) => l.pointer ?? '').join(', ');
  return `${p.severity} ${p.ruleId}: ${p.message} at ${where}`;
}

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended rules without an error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map(describeProblem);
    expect(errors, 'lint errors in /_api/openapi.json').toEqual([]);
    const warnings = problems.filter((p) => p.severity === 'warn' && !(p.ruleId in ACCEPTED_WARNINGS)).map(describeProblem);
    expect(warnings, 'lint warnings in /_api/openapi.json').toEqual([]);
  });

  it('gives every operation an operationId, a summary, its security and a 4xx answer with the error shape', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(50);
    const problems: string[] = [];
    const ids = new Map<string, string>();
    for (const [key, op] of ops) {
      if (!op.operationId || !/^[a-z][A-Za-z0-9]*$/.test(op.operationId)) problems.push(`${key}: operationId ${op.operationId}`);
      else if (ids.has(op.operationId)) problems.push(`${key}: operationId ${op.operationId} is also ${ids.get(op.operationId)}'s`);
      else ids.set(op.operationId, key);
      if (!op.summary) problems.push(`${key}: no summary`);
      if (!Array.isArray(op.security)) problems.push(`${key}: no security`);
      const fourxx = Object.entries(op.responses ?? {}).filter(([status]) => /^4\d\d$/.test(status));
      if (fourxx.length === 0) problems.push(`${key}: no 4xx answer`);
      for (const [status, answer] of fourxx) {
        if (!answer.content?.['application/json']?.schema) problems.push(`${key}: ${status} without the error schema`);
      }
      for (const name of op.security?.flatMap((s) => Object.keys(s)) ?? []) {
        if (!doc.components?.securitySchemes?.[name]) problems.push(`${key}: security scheme ${name} is not declared`);
      }
    }
    expect(problems).toEqual([]);
  });
});
