-- @enqueue: admit one job in a single atomic transition.
-- KEYS[1] = the job row      emq:{q}:job:<id>
-- KEYS[2] = the pending set  emq:{q}:pending
-- ARGV[1] = the job id (must start with the bytes 'JOB')
-- ARGV[2] = the payload, stored as given
-- Replies 1 (enqueued), 0 (duplicate) or an EMQKIND error (wrong kind of id).

-- @move 1 gate: only JOB-branded ids are admitted; the check lives in the
-- script so that every client, in any language, meets the same rule.
if string.sub(ARGV[1], 1, 3) ~= 'JOB' then
  return redis.error_reply('EMQKIND job id must be JOB-namespaced')
end
-- @move 2 idempotency: a row that is already there means this id was
-- admitted before; answer 0 and touch nothing.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
-- @move 3 row: the three fields every reader of a job expects. attempts
-- starts at '0' and becomes the fencing token once a worker claims the job.
redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', '0', 'payload', ARGV[2])
-- @move 4 pending: every member scores 0, so ZPOPMIN takes ids in byte
-- order; time-ordered ids make that the order they were minted in.
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
