// A gauge of one core's speed for bench/run.mjs, pinned to that core (`taskset`): every 250 ms it
// does the same two pieces of work and prints the CPU time each took, in µs. The work never
// changes, so a rise in either is the machine, not the service being measured:
// - compute: arithmetic on a few registers, what a core's clock and its share of the host decide;
// - memory: a chase through 16 MB of pointers in random order, each step a cache miss, what the
//   host's shared caches and memory bandwidth decide (noisy neighbours show here first).
// CPU time, not wall time: a probe waiting for the core while the server runs is not slower.
// Each sample costs well under 1% of a core.
const COMPUTE_STEPS = 20_000;
const MEMORY_STEPS = 4_000;
const SLOTS = 4 * 1024 * 1024; // Int32 slots: 16 MB, beyond any core's L2 and most of an L3.

// One cycle through every slot in random order (Sattolo's algorithm), seeded: the same walk each run.
const next = new Int32Array(SLOTS);
for (let i = 0; i < SLOTS; i++) {
  next[i] = i;
}
let seed = 42;
for (let i = SLOTS - 1; i > 0; i--) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  const j = seed % i;
  const t = next[i];
  next[i] = next[j];
  next[j] = t;
}

let sink = 0;
let at = 0;

function compute() {
  let x = sink;
  for (let i = 0; i < COMPUTE_STEPS; i++) {
    x = (x * 1103515245 + 12345 + i) % 2147483647;
  }
  sink = x;
}

function memory() {
  let p = at;
  for (let i = 0; i < MEMORY_STEPS; i++) {
    p = next[p];
  }
  at = p;
}

function cpuUs(work) {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

// Warm both up (compiled, and the walk's pages touched) before the first sample.
for (let i = 0; i < 200; i++) {
  compute();
}
for (let i = 0; i < SLOTS / MEMORY_STEPS; i++) {
  memory();
}

setInterval(() => {
  process.stdout.write(`${Date.now()} ${cpuUs(compute)} ${cpuUs(memory)}\n`);
}, 250);
process.on('SIGTERM', () => process.exit(0));
