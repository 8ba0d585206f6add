// The fill both Node benchmarks (wasm_bench.mjs, depth_bench.mjs) give a
// deep queue, so that they fill it alike.
//
// PREFILL writes jobs ARGV[2]..ARGV[3] as @enqueue would have (the row with
// its three fields, the id at score 0 in the pending set) in one call, so a
// deep queue fills in a moment. The same script as prefillScript in
// latency.go. KEYS[1] = pending set, ARGV[1] = row-key base, ARGV[4] =
// payload.
export const PREFILL = `for n = tonumber(ARGV[2]), tonumber(ARGV[3]) do
  local id = string.format('JOB-%010d', n)
  redis.call('HSET', ARGV[1] .. id, 'state', 'pending', 'attempts', '0', 'payload', ARGV[4])
  redis.call('ZADD', KEYS[1], 0, id)
end
return tonumber(ARGV[3]) - tonumber(ARGV[2]) + 1`;

// PREFILL_CHUNK is how many jobs one PREFILL call writes: few enough to
// stay far inside the engine's script work budget on a slow, busy
// machine.
export const PREFILL_CHUNK = 100;
