#!/usr/bin/env node
// A Castle Dash bot for Siegeworks, written against the published bus contract alone
// (docs/clients.md, docs/contract/asyncapi.json, docs/contract/schema.json).
//
// It joins a match with an open seat, answers every prompt of its seat with a legal action
// picked by a seeded PRNG, and prints one JSON line when the match has finished:
//   {"match_id": ..., "client": ..., "seat": ..., "rank": ..., "decisions": N, "rejected": N}
//
// Exit codes: 0 the match finished; 1 bad usage or an unexpected error; 2 the join was
// refused; 3 the overall timeout ran out.

import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { parseArgs } from 'node:util';

import { decode, encode } from '@msgpack/msgpack';
import { createClient, createCluster, RESP_TYPES } from 'redis';

const REGISTRY = 'siege:clients';
const DOORBELL = 'siege:clients:changed';
const CLIENT_ID = /^[A-Za-z0-9_.-]{1,64}$/;
// Integers wider than 53 bits stay exact (as BigInt) through a decode and a re-encode.
const MSGPACK = { useBigInt64: true };

const USAGE = `usage: node bot.js --match MATCH_ID --client CLIENT_ID [--redis redis://host:port]
                   [--seat N] [--name NAME] [--seed N] [--timeout-ms N] [--block-ms N] [--verbose]

  --redis       Redis URL (default: $REDIS_URL, else redis://127.0.0.1:6379); a cluster's:
                redis+cluster://host:port,host:port
  --match       the id of a match with open seats (siege run --open-seats N prints them)
  --client      your client id: 1-64 of A-Z a-z 0-9 _ . -
  --seat        the seat to claim (default -1: the lowest open seat)
  --name        the seat's name in the match (default: the client id)
  --seed        seed of the bot's choices (default: derived from the client and match ids)
  --timeout-ms  give up after this long in all (default 300000)
  --block-ms    longest single XREAD BLOCK (default 1000)
  --verbose     log every message received to stderr`;

class Exit extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function options(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        redis: { type: 'string' },
        match: { type: 'string' },
        client: { type: 'string' },
        seat: { type: 'string', default: '-1' },
        name: { type: 'string' },
        seed: { type: 'string' },
        'timeout-ms': { type: 'string', default: '300000' },
        'block-ms': { type: 'string', default: '1000' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new Exit(1, `${err.message}\n${USAGE}`);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const integer = (flag, min) => {
    const value = Number(parsed[flag]);
    if (!Number.isSafeInteger(value) || value < min) {
      throw new Exit(1, `--${flag} must be an integer >= ${min}, not ${parsed[flag]}`);
    }
    return value;
  };
  if (!parsed.match) throw new Exit(1, `--match is required\n${USAGE}`);
  if (!parsed.client || !CLIENT_ID.test(parsed.client)) {
    throw new Exit(1, `--client must be 1-64 of A-Z a-z 0-9 _ . - (got ${parsed.client ?? 'nothing'})`);
  }
  return {
    redisUrl: parsed.redis ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    matchId: parsed.match,
    client: parsed.client,
    seat: integer('seat', -1),
    name: parsed.name ?? parsed.client,
    seed: parsed.seed !== undefined ? integer('seed', 0) : hash32(`${parsed.client}/${parsed.match}`),
    timeoutMs: integer('timeout-ms', 1),
    blockMs: integer('block-ms', 1),
    verbose: parsed.verbose,
  };
}

// FNV-1a, to derive a default seed from a string.
function hash32(text) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  }
  return h;
}

// mulberry32: a small seeded PRNG, so a bot's choices can be replayed.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const log = (text) => process.stderr.write(`bot: ${text}\n`);

// Printable form of a decoded message (BigInt and bytes are not JSON).
function show(value) {
  return JSON.stringify(value, (_key, v) => {
    if (typeof v === 'bigint') return v.toString();
    if (v instanceof Uint8Array) return `<${v.length} bytes>`;
    return v;
  });
}

// On a server without ACLs a client registers itself, so the services read its commands
// stream; under ACLs the operator did that when admitting it, and both writes are refused.
async function register(writer, client) {
  try {
    await writer.sAdd(REGISTRY, client);
    await writer.xAdd(DOORBELL, '*', { c: client });
  } catch (err) {
    if (!String(err.message).startsWith('NOPERM')) throw err;
  }
}

// A plain Redis URL, or a Redis Cluster's: redis+cluster://[user:password@]host:port,host:port
// (every key this bot touches in one command shares its slot, so only the client differs).
function connectTo(url) {
  const found = /^(rediss?)\+cluster:\/\/(?:([^@]*)@)?([^/?]+)/.exec(url);
  if (found === null) return createClient({ url });
  const [, scheme, auth, hosts] = found;
  const [username, password] = (auth ?? '').split(':').map(decodeURIComponent);
  return createCluster({
    rootNodes: hosts.split(',').map((host) => ({ url: `${scheme}://${host}` })),
    defaults: { username: username || undefined, password: password || undefined },
  });
}

async function play(opts) {
  const random = prng(opts.seed);
  // Every key of this client carries its shard as a hash tag: crc32 of the id, mod 16.
  const prefix = `siege:client:{s${crc32(opts.client) % 16}}:${opts.client}:`;
  const inbox = `${prefix}inbox`;
  // The one stream this client writes: the services take whoever owns it as the sender.
  const commands = `${prefix}commands`;
  // One connection writes; another one blocks in XREAD, so a submit never waits behind it.
  // Replies come as Buffers: bus entries are binary msgpack.
  const writer = connectTo(opts.redisUrl);
  const reader = writer.duplicate().withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  for (const conn of [writer, reader]) conn.on('error', (err) => log(`redis: ${err.message}`));
  await writer.connect();
  await reader.connect();

  await register(writer, opts.client);
  const publish = (message) => writer.xAdd(commands, '*', { m: Buffer.from(encode(message, MSGPACK)) });

  const deadline = Date.now() + opts.timeoutMs;
  const join = () => publish({ t: 'cmd.join_match', match_id: opts.matchId, client: opts.client, seat: opts.seat, name: opts.name });
  const cursors = new Map([[inbox, '0-0']]); // stream -> last id read
  let held = null; // { seat, token, stream } once granted
  let answered = -1; // the last decision answered
  let decisions = 0;
  let rejected = 0;
  let pending = null; // { commandId, decision, choices }: the last answer sent

  const submit = async (decision, choices) => {
    const i = Math.floor(random() * choices.length);
    const action = choices[i];
    const commandId = `${opts.client}-${decision}-${randomUUID()}`;
    pending = { commandId, decision, choices: choices.filter((_, j) => j !== i) };
    await publish({
      t: 'cmd.submit_action',
      match_id: opts.matchId,
      seat: held.seat,
      decision,
      command_id: commandId,
      // msgpack bin holding the msgpack of the chosen action
      action: encode(action, MSGPACK),
      token: held.token,
      client: opts.client,
    });
    if (opts.verbose) log(`decision ${decision}: ${show(action)}`);
  };

  const onInbox = async (msg) => {
    switch (msg.t) {
      case 'note.seat_granted':
        if (msg.match_id !== opts.matchId) return null;
        if (held === null) {
          held = { seat: msg.seat, token: msg.token, stream: msg.stream };
          cursors.set(msg.stream, '0-0');
          log(`holding seat ${msg.seat} of ${msg.match_id} (${msg.game}); prompts on ${msg.stream}`);
        } else if (msg.seat === held.seat) {
          held.token = msg.token; // a repeated grant: same seat
        }
        return null;
      case 'note.command_refused':
        if (msg.command === 'cmd.join_match' && msg.subject === opts.matchId && held === null
            && msg.code === 'unknown_match') {
          // The join overtook the match's creation (or the match is not made yet): ask again.
          await new Promise((resolve) => setTimeout(resolve, 100));
          await join();
          return null;
        }
        if (msg.command === 'cmd.join_match' && msg.subject === opts.matchId && held === null) {
          throw new Exit(2, `join of ${opts.matchId} refused: ${msg.code}${msg.detail ? ` (${msg.detail})` : ''}`);
        }
        log(`command refused: ${msg.command} ${msg.subject}: ${msg.code} ${msg.detail ?? ''}`);
        return null;
      case 'note.action_rejected':
        rejected += 1;
        log(`action rejected: command ${msg.command_id}: ${msg.code} ${msg.detail ?? ''}`);
        // A refused choice for the open decision: try another of its legal actions.
        if (pending && msg.command_id === pending.commandId && pending.decision === answered
            && ['illegal_action', 'malformed'].includes(msg.code) && pending.choices.length > 0) {
          await submit(pending.decision, pending.choices);
        }
        return null;
      case 'note.match_finished':
        if (msg.match_id !== opts.matchId) return null;
        if (held === null) throw new Exit(1, `${opts.matchId} finished without a seat for ${opts.client}`);
        return {
          match_id: msg.match_id,
          client: opts.client,
          seat: held.seat,
          rank: msg.ranks[held.seat],
          ranks: msg.ranks,
          decisions,
          rejected,
        };
      default:
        if (opts.verbose) log(`ignored on inbox: ${msg.t}`);
        return null;
    }
  };

  const onPrompt = async (msg) => {
    if (msg.t !== 'note.seat_prompted' || msg.match_id !== opts.matchId || msg.seat !== held.seat) {
      if (opts.verbose) log(`ignored on seat stream: ${show(msg)}`);
      return;
    }
    const decision = Number(msg.decision);
    if (decision <= answered) return;
    // `legal` holds each action as embedded msgpack, so it decodes to action maps.
    if (!Array.isArray(msg.legal) || msg.legal.length === 0) {
      log(`decision ${decision}: no legal action offered`);
      return;
    }
    answered = decision;
    decisions += 1;
    await submit(decision, msg.legal);
  };

  try {
    // Read the inbox from its current end: what an earlier session left there is not ours.
    const last = await reader.xRevRange(inbox, '+', '-', { COUNT: 1 });
    if (last.length > 0) cursors.set(inbox, last[0].id.toString());
    await join();
    log(`asked to join ${opts.matchId} as ${opts.client} (seat ${opts.seat})`);
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Exit(3, `timed out after ${opts.timeoutMs} ms (seat ${held ? held.seat : 'not granted'}, ${decisions} decisions answered)`);
      }
      const streams = [...cursors].map(([key, id]) => ({ key, id }));
      const reply = await reader.xRead(streams, { BLOCK: Math.min(opts.blockMs, left), COUNT: 100 });
      for (const { name, messages } of reply ?? []) {
        const stream = name.toString();
        for (const { id, message } of messages) {
          cursors.set(stream, id.toString());
          let msg;
          try {
            msg = decode(message.m, MSGPACK);
          } catch (err) {
            log(`unreadable entry ${id} on ${stream}: ${err.message}`);
            continue;
          }
          if (opts.verbose) log(`${stream} ${id}: ${msg.t}`);
          if (stream === inbox) {
            const summary = await onInbox(msg);
            if (summary) return summary;
          } else {
            await onPrompt(msg);
          }
        }
      }
    }
  } finally {
    await Promise.allSettled([writer, reader].map((conn) => (conn.isOpen ? conn.close() : null)));
  }
}

async function main() {
  try {
    const summary = await play(options(process.argv.slice(2)));
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    process.exitCode = 0;
  } catch (err) {
    if (err instanceof Exit) {
      log(err.message);
      process.exitCode = err.code;
    } else {
      log(`error: ${err.stack ?? err}`);
      process.exitCode = 1;
    }
  }
}

await main();
