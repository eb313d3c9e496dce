// What must carry on when an app server dies: a person signs in, buys a step-up token and starts a multipart upload
// on app1 directly, and an attacker trips the sign-in throttle there; app1 is killed with SIGKILL between the two
// parts; the same cookie, upload, token and throttle are then tried on app2 directly.
import { adminSignIn, exportAudit } from './admin-work.js';
import { HttpUser, type Sample } from './http-user.js';
import { uploadMultipart, type Written } from './mixed-load.js';
import { PASSWORD, type Person, type SeedMatter } from './seed.js';

export type ProbeResult = {
  sessionOnApp2: number;
  multipartCompletedOnApp2: boolean;
  stepUpOnApp1: number;
  stepUpOnApp2: number;
  throttleOnApp1: number[];
  throttleOnApp2: number;
};

/** Runs the probes around `kill` (which kills app1 and resolves once HAProxy has taken it out). */
export async function probeAroundKill(o: {
  app1: string;
  app2: string;
  person: Person;
  victim: Person;
  matter: SeedMatter;
  samples: Sample[];
  kill: () => Promise<void>;
}): Promise<ProbeResult> {
  // The person's session and step-up token, bought on app1 (the administrator's export class).
  const s = await adminSignIn(o.app1, o.person, o.samples, '127.0.8.1');
  const stepUpOnApp1 = await exportAudit(s);
  // Ten wrong passwords for the victim on app1, from an address of their own: the account's sign-in is then locked.
  const attacker = new HttpUser(o.app1, '127.0.8.2', o.samples);
  const throttleOnApp1: number[] = [];
  for (let i = 0; i < 11; i++)
    throttleOnApp1.push(
      (await attacker.post('signin', 'wrong password', '/_api/auth/login_with_password', { email: o.victim.email, password: `wrong ${i}` }))
        .status,
    );
  attacker.close();

  let onApp2: HttpUser | undefined;
  const written: Written[] = [];
  const ctx = { u: s.u, r: Math.random, matters: [o.matter], written, tag: 'probe', n: 0 };
  const multipartCompletedOnApp2 = await uploadMultipart(ctx, o.matter, 32 * 1024, async () => {
    await o.kill();
    onApp2 = new HttpUser(o.app2, '127.0.8.1', o.samples);
    for (const [k, v] of s.u.cookies) onApp2.cookies.set(k, v);
    return onApp2;
  });
  s.u.close();
  const u2 = onApp2!;
  const sessionOnApp2 = (await u2.get('read', 'session', '/_api/auth/session')).status;
  const stepUpOnApp2 = await exportAudit({ u: u2, exportToken: s.exportToken });
  u2.close();
  // The victim's right password, from yet another address, on app2: still refused while the lock lasts.
  const victim = new HttpUser(o.app2, '127.0.8.3', o.samples);
  const throttleOnApp2 = (
    await victim.post('signin', 'locked sign-in', '/_api/auth/login_with_password', { email: o.victim.email, password: PASSWORD })
  ).status;
  victim.close();
  return { sessionOnApp2, multipartCompletedOnApp2, stepUpOnApp1, stepUpOnApp2, throttleOnApp1, throttleOnApp2 };
}
