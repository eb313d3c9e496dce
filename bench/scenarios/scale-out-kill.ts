// Scale-out under failure: during the mixed load through HAProxy, app1 is killed with SIGKILL (sessions, a multipart
// upload, a step-up token and a sign-in throttle made on app1 are then used on app2), and the worker running a vault
// transfer is killed with SIGKILL (another worker must finish it, exactly once).
import pg from 'pg';
import { checkVault, vaultMatter, adminSignIn } from '../lib/admin-work.js';
import type { LbLogEntry } from '../lib/cluster.js';
import { probeAroundKill, type ProbeResult } from '../lib/kill-probes.js';
import { describeTarget, errorTable, figures, latencyTable } from '../lib/load-report.js';
import { runMixedLoad } from '../lib/mixed-load.js';
import { cpuMs, kill9, sleep, type Proc } from '../lib/procs.js';
import { knobs, startInstallation } from '../lib/scale-setup.js';
import { fmt, fmtInt } from '../lib/stats.js';
import type { Sample } from '../lib/http-user.js';
import type { Scenario } from '../lib/types.js';

/** Kills, with SIGKILL, the worker that is copying the matter's files (the one using the most CPU) once some are in. */
async function killTransferringWorker(databaseUrl: string, matterId: string, workers: Proc[], deadline: number) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    while (Date.now() < deadline) {
      const t = (await c.query('select files_done, files_total from vault_transfers where matter_id = $1', [matterId])).rows[0];
      if (t && t.files_done > 0 && t.files_done < t.files_total * 0.6) {
        const before = workers.map((w) => cpuMs(w.pid));
        await sleep(400);
        const used = workers.map((w, i) => cpuMs(w.pid) - before[i]);
        const victim = used.indexOf(Math.max(...used));
        const at = (await c.query('select files_done from vault_transfers where matter_id = $1', [matterId])).rows[0].files_done as number;
        kill9(workers[victim]);
        return { worker: workers[victim].name, filesDoneAtKill: at, filesTotal: t.files_total as number, cpuMsLast400: used };
      }
      await sleep(50);
    }
    return undefined;
  } finally {
    await c.end();
  }
}

/** HAProxy's view of the kill: 5xx in flight on app1 at the kill, and any other 5xx. */
function lbAtKill(log: LbLogEntry[], killAt: number) {
  const inFlight = log.filter((e) => e.server === 'app1' && e.startedAt <= killAt && e.startedAt + Math.max(0, e.totalMs) >= killAt - 5);
  const fiveXx = log.filter((e) => e.status >= 500);
  // Every request HAProxy ended abnormally near the kill (a termination state other than "--"), whatever its status.
  const abnormal = log.filter((e) => e.term !== '--' && Math.abs(e.startedAt - killAt) < 10_000);
  const beyond = fiveXx.filter((e) => !inFlight.includes(e));
  const afterKillOnApp1 = log.filter((e) => e.server === 'app1' && e.startedAt > killAt + 50);
  return { inFlight, fiveXx, beyond, afterKillOnApp1, abnormal };
}

export const scenario: Scenario = {
  name: 'scale-out-kill',
  title: 'Scale-out: kill -9 of an app server and of a worker under load',
  order: 101,
  description:
    'The scale-out topology and mixed load (see "Scale-out: mixed load"); a third of the way in, app1 is killed with SIGKILL between the two parts of a ' +
    'multipart upload started on it, and a session, a step-up token and a tripped sign-in throttle made on app1 are tried on app2. Meanwhile the ' +
    'administrator vaults a matter of many small files, and the worker copying it is killed with SIGKILL; the database is then checked row by row.',
  async run({ root, log }) {
    const k = knobs();
    const vaultFiles = Number(process.env.BENCH_KILL_VAULT_FILES ?? 1500);
    const inst = await startInstallation({
      root,
      log,
      apps: 2,
      workers: 2,
      members: k.users + 2,
      extraMatters: [{ name: 'Vault crash matter', files: vaultFiles, size: 16 * 1024 }],
    });
    try {
      const { cluster, firm, extra } = inst;
      const probeSamples: Sample[] = [];
      let killAt = 0;
      let drainedMs = NaN;
      let probes: ProbeResult | undefined;
      let workerKill: Awaited<ReturnType<typeof killTransferringWorker>>;
      let vaultStatus = 0;
      log(`${k.users} people for ${k.seconds} s; app1 killed at ${Math.round(k.seconds / 3)} s...`);
      const run = await runMixedLoad({
        base: cluster.lbUrl,
        firm: { ...firm, members: firm.members.slice(0, k.users) },
        users: k.users,
        seconds: k.seconds,
        thinkMs: k.thinkMs,
        beside: async (load, deadline) => {
          const vaulting = (async () => {
            const s = await adminSignIn(cluster.lbUrl, firm.admin, probeSamples, '127.0.9.2');
            vaultStatus = await vaultMatter(s, firm.admin, extra[0].id);
            s.u.close();
            workerKill = await killTransferringWorker(inst.pg.url, extra[0].id, cluster.workers, deadline + 60_000);
            log(`worker kill: ${JSON.stringify(workerKill)}`);
          })();
          await sleep((k.seconds * 1000) / 3);
          probes = await probeAroundKill({
            app1: cluster.appUrls[0],
            app2: cluster.appUrls[1],
            person: firm.members[k.users],
            victim: firm.members[k.users + 1],
            matter: firm.matters[0],
            samples: probeSamples,
            kill: async () => {
              killAt = Date.now();
              kill9(cluster.apps[0]);
              for (let i = 0; i < 100; i++) {
                if ((await cluster.lb('show stat')).split('\n').some((l) => l.startsWith('apps,app1,') && l.includes(',DOWN'))) {
                  drainedMs = Date.now() - killAt;
                  break;
                }
                await sleep(50);
              }
              log(`app1 killed; HAProxy marked it DOWN after ${drainedMs} ms`);
            },
          });
          log(`probes: ${JSON.stringify(probes)}`);
          await vaulting;
          void load;
        },
      });
      const f = figures(run.samples);
      const lb = lbAtKill(cluster.lbLog, killAt);
      const clientFiveXxAtKill = run.samples.filter((s) => s.status >= 500 || s.status === 0);
      const vault = await checkVault(inst.pg.url, cluster.dataDir, extra[0].id, 180_000);
      log(`load: ${describeTarget(f)}; failures ${JSON.stringify(f.byKind)}; vault ${JSON.stringify(vault)}`);
      const p = probes!;
      const carried = p.sessionOnApp2 === 200 && p.multipartCompletedOnApp2 && p.stepUpOnApp2 === 200 && p.throttleOnApp2 === 429;
      const wk = workerKill!;
      return {
        headline: `kill -9 app1: ${lb.fiveXx.length} 5xx at HAProxy (${lb.beyond.length} beyond the ${lb.inFlight.length} in flight on app1), session/upload/step-up/throttle ${carried ? 'carried on' : 'DID NOT all carry on'}; worker kill: vault ${vault.exactlyOnce ? 'finished exactly once' : 'NOT exactly once'}`,
        summary: [
          `- Load through HAProxy: ${describeTarget(f)}.`,
          `- **kill -9 of app1** at ${fmt((killAt - (run.samples[0]?.at ?? killAt)) / 1000, 1)} s: HAProxy marked it DOWN after ${fmtInt(drainedMs)} ms and sent it ${lb.afterKillOnApp1.length} requests begun after the kill; requests in flight on app1 at the kill (HAProxy log): ${lb.inFlight.length}; **5xx answered by HAProxy: ${lb.fiveXx.length}, of which beyond those in flight: ${lb.beyond.length}**; people's requests that failed with a 5xx or no answer: ${clientFiveXxAtKill.length}${clientFiveXxAtKill.length ? ` (${clientFiveXxAtKill.map((s) => `${s.status || s.error} on ${s.name} answered ${fmtInt(s.at - killAt)} ms after the kill, begun ${fmtInt(s.at - s.ms - killAt)} ms`).join('; ')})` : ''}.`,
          `- Carried on to app2 (made on app1, used on app2 directly): session call ${p.sessionOnApp2}; multipart upload (init and part 1 on app1, part 2 and completion on app2) ${p.multipartCompletedOnApp2 ? 'completed' : 'FAILED'}; step-up token (export) ${p.stepUpOnApp1} on app1, ${p.stepUpOnApp2} on app2; sign-in throttle: wrong passwords on app1 answered ${p.throttleOnApp1.join(' ')}, then the right password on app2 answered ${p.throttleOnApp2} (429 = the lock made on app1 holds).`,
          `- **kill -9 of ${wk?.worker ?? 'a worker'}** during the vault transfer of ${fmtInt(vaultFiles)} files (vault start answered ${vaultStatus}; ${wk ? `${wk.filesDoneAtKill} files done at the kill, CPU of the workers in the 400 ms before: ${wk.cpuMsLast400.map((x) => fmt(x, 0)).join(' and ')} ms` : 'the transfer finished before a kill could land'}): transfer ${vault.state}, ${vault.filesDone}/${vault.filesTotal} files; vault object rows ${vault.vaultObjects} for ${vault.distinctNodes} files; certificates ${vault.certificates}; vault files in the store ${vault.objectFiles}; audit ${Object.entries(
            vault.audit,
          )
            .map(([a, n]) => `${a} x${n}`)
            .join(', ')}: **${vault.exactlyOnce ? 'exactly once' : 'NOT exactly once'}**.`,
        ],
        tables: [
          latencyTable([['kill run', f]], 'Latency of the requests that answered 2xx, by class'),
          errorTable([['kill run', f]]),
          {
            caption:
              "Requests HAProxy's log shows ending abnormally (termination state other than --: first letter who ended it, C client, S server; second the stage) within 10 s of the kill, or with a 5xx; times relative to the kill",
            columns: ['server', 'status', 'termination', 'began ms', 'lasted ms', 'call', 'in flight on app1 at the kill'],
            rows: [...new Set([...lb.abnormal, ...lb.fiveXx])]
              .slice(0, 40)
              .map((e) => [
                e.server,
                e.status,
                e.term,
                e.startedAt - killAt,
                e.totalMs,
                `${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, ':id')}`,
                lb.inFlight.includes(e) ? 'yes' : 'no',
              ]),
          },
        ],
        notes: [
          '- HAProxy: `option httpchk GET /readyz`, checks every second with 5 s to answer, 3 failures to mark DOWN; `retries 2` with `option redispatch` (a request whose connection to app1 is refused goes to app2; a request already sent is never sent again, so requests in flight on the killed server fail with 502).',
          '- "In flight on app1" are the requests HAProxy\'s log shows on app1 that had begun and not ended at the kill; the killed process answers none of them.',
          '- The worker killed is the one that spent the most CPU in the 400 ms before the kill (the one copying files); pg-boss notices its silence through the job heartbeat and another worker takes the job over; the checks wait for the transfer to complete (up to 3 minutes).',
          `- ${k.users} people, ${k.seconds} s, think time ${k.thinkMs} ms, on the shared 2-core machine.`,
        ],
      };
    } finally {
      await inst.close();
    }
  },
};
