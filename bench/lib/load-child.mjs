// Runs one autocannon load in its own process (so that the load generator does not share the event loop of
// the server under test) and prints a compact JSON result on stdout. Options come as JSON in argv[2].
// Only loopback targets are accepted; autocannon stops by itself after `duration` seconds.
import autocannon from 'autocannon';

const opts = JSON.parse(process.argv[2]);
const { hostname } = new URL(opts.url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(hostname)) {
  console.error(`refusing to load ${hostname}: loopback only`);
  process.exit(2);
}
const r = await autocannon({
  url: opts.url,
  connections: opts.connections,
  duration: opts.duration,
  headers: opts.headers ?? {},
  pipelining: 1,
  timeout: 10,
});
process.stdout.write(
  JSON.stringify({
    duration: r.duration,
    requestsAverage: r.requests.average,
    totalCompleted: r.requests.total,
    latency: {
      p50: r.latency.p50,
      p90: r.latency.p90,
      p97_5: r.latency.p97_5,
      p99: r.latency.p99,
      average: r.latency.average,
      max: r.latency.max,
    },
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodeStats: r.statusCodeStats,
  }),
);
