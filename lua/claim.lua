-- @claim (flat): hand the oldest pending job to a worker under a lease.
-- KEYS[1] = the pending set  emq:{q}:pending
-- KEYS[2] = the active set   emq:{q}:active (score = lease deadline, ms)
-- ARGV[1] = the row-key base emq:{q}:job:
-- ARGV[2] = the lease in milliseconds, as decimal digits
-- Replies {id, payload, attempts}, or an empty array when nothing is pending.

-- Redis keeps every write a script made before it failed, so the lease is
-- judged here, before the first write: a bad lease must not pop a job.
-- Digits only, 1 to 15 of them, so that now + lease stays an exact number.
local lease = ARGV[2]
if not string.find(lease, '^[1-9]%d*$') or #lease > 15 then
  return redis.error_reply('EMQLEASE lease must be a positive integer of milliseconds')
end
-- @move 1 pop: take the oldest pending id, and its payload from the row.
local popped = redis.call('ZPOPMIN', KEYS[1])
if #popped == 0 then
  return {}
end
local id = popped[1]
local row = ARGV[1] .. id
local payload = redis.call('HGET', row, 'payload')
-- @move 2 attempt: count this delivery; the new count is the fencing token
-- a worker must show when it later acks or fails the job.
local attempts = redis.call('HINCRBY', row, 'attempts', 1)
-- @move 3 state: the row now says a worker holds it.
redis.call('HSET', row, 'state', 'active')
-- @move 4 lease: the deadline is read from the server clock, never from the
-- worker's, and stored as the id's score in the active set.
local now = redis.call('TIME')
local deadline = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(lease)
redis.call('ZADD', KEYS[2], deadline, id)
return {id, payload, attempts}
