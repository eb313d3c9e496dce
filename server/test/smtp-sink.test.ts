import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn, readMailDir, startSmtpSink, waitForCodeIn, waitForLinkIn, waitForMailIn, type SmtpSink } from './smtp-sink.js';

// The sink both the server tests (in memory) and the end-to-end run (a folder read by other processes) use.
let sink: SmtpSink;
let dir: string;
const send = (to: string, subject: string, text: string) =>
  nodemailer.createTransport(sink.url).sendMail({ from: 'archive@firm.test', to, subject, text });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-sink-'));
  sink = await startSmtpSink({ dir });
});
afterAll(async () => {
  await sink.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the SMTP sink', () => {
  it('hands a waiter the code of a mail that arrives after it started waiting, in memory and in the folder', async () => {
    const since = Date.now();
    const waiting = sink.lastCode('Ada@Firm.test');
    await send('ada@firm.test', 'Your Strongroom verification code', 'Your code is 482913. It expires in 10 minutes.');
    expect(await waiting).toBe('482913');
    expect(await waitForCodeIn(dir, 'ada@firm.test', since)).toBe('482913');
  });

  it('finds the newest token link to a path, and only mail received since the time given', async () => {
    await send('bob@firm.test', 'Invitation', 'Join here: http://localhost:3000/accept-invitation?token=old-token\n');
    const since = Date.now();
    await send('bob@firm.test', 'Invitation', 'Join here: http://localhost:3000/accept-invitation?token=new_Token-1\n');
    expect(await sink.lastLink('bob@firm.test', '/accept-invitation')).toBe('http://localhost:3000/accept-invitation?token=new_Token-1');
    expect(await waitForLinkIn(dir, 'bob@firm.test', since, '/accept-invitation')).toBe(
      'http://localhost:3000/accept-invitation?token=new_Token-1',
    );
    expect(readMailDir(dir).map((m) => m.to)).toEqual([['ada@firm.test'], ['bob@firm.test'], ['bob@firm.test']]);
  });

  it('fails a wait for a mail that never comes', async () => {
    await expect(sink.waitFor('nobody@firm.test', { timeoutMs: 50 })).rejects.toThrow(/did not arrive within 50 ms/);
    await expect(waitForMailIn(dir, 'nobody@firm.test', 0, codeIn, 'verification code', 50)).rejects.toThrow(
      /no verification code to nobody@firm.test/,
    );
  });
});
