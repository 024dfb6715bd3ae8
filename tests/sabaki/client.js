#!/usr/bin/env node
// The engine driven by @sabaki/gtp 3.0.0 exactly the way Sabaki drives engines
// (shared/GTP-REFERENCE.md 2.1-2.3, 2.8):
//
// 1. each engine is a `Controller` with a `ControllerStateTracker`, and on start Sabaki
//    pipelines `name`, `version`, `protocol_version`, `list_commands` without waiting;
// 2. before every genmove Sabaki syncs the engine to {komi, boardsize, history}: the first
//    sync sends `komi 6.5`, `boardsize 9`, `clear_board`; later ones send the opponent's
//    moves as `play`, or `undo`s, or a full replay, whatever the tracker decides;
// 3. engine against engine: two processes, Black and White, each told the other's moves,
//    each move asked with the first of genmove_analyze, kata-genmove_analyze,
//    lz-genmove_analyze that list_commands names (Sabaki's setting
//    `engines.gemove_analyze_commands`), as `NAME C 50`, its `info` lines read as they come
//    and the move taken from its `play` line;
// 4. at the end an `undo`, a resync, and `final_score`;
// 5. the tracker's `sync` on a fresh engine with short histories (handicap, undo path,
//    replay path), checked with list_stones;
// 6. live analysis as Sabaki runs it: `analyze B 50` (the first of analyze, kata-analyze,
//    lz-analyze that list_commands names), reports read through the subscriber, stopped by
//    the next command (Sabaki's sendAbort writes `protocol_version`).
//
// Every response must be well formed and not an error; the raw output of each engine must
// hold nothing but responses. Exits non-zero with a message on the first failure.
//
// Usage: node tests/sabaki/client.js target/release/shicho [ENGINE ARGS...]
// The engine arguments (Sabaki's "Arguments" field) default to a short tree search that
// never resigns, so that a whole game takes seconds and runs to two passes.

'use strict'

const path = require('path')
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const DEFAULT_ENGINE_ARGS = ['--playouts', '1000', '--resign', '0']
const MOVE_LIMIT = 300
const TIMEOUT_MS = 120000
const SCORE = /^(B|W)\+\d+(\.\d+)?$|^0$/
const VERTEX_9 = /^([A-HJ][1-9]|PASS|RESIGN)$/

function fail(message) {
  console.error(`sabaki client: FAIL: ${message}`)
  process.exit(1)
}

function check(condition, message) {
  if (!condition) fail(message)
}

// One engine as Sabaki holds it: a controller, its state tracker, and a record of the raw
// output and of every exchange for the checks and for error messages.
class Engine {
  constructor(label, enginePath, engineArgs) {
    this.label = label
    this.controller = new Controller(enginePath, engineArgs, {
      cwd: path.dirname(enginePath)
    })
    this.tracker = new ControllerStateTracker(this.controller)
    this.raw = ''
    this.exchanges = []
    this.exitCode = undefined
    this.controller.on('started', () => {
      const proc = this.controller.process
      proc.stdout.on('data', data => (this.raw += data.toString('latin1')))
      proc.once('exit', code => (this.exitCode = code))
    })
    this.controller.on('response-received', ({command, response}) => {
      this.exchanges.push({command, response})
      check(
        typeof response.content === 'string',
        `${this.label}: response to ${command.name} has no content`
      )
      check(
        !response.error,
        `${this.label}: '${commandLine(command)}' failed: '${response.content}'`
      )
    })
  }

  start() {
    this.controller.start()
  }

  async send(name, ...args) {
    return await this.controller.sendCommand({name, args})
  }

  // The raw output: responses only, each `=`/`?`, optional id, a space, the text, and an
  // empty line; nothing else.
  checkRawOutput() {
    check(
      this.raw.endsWith('\n\n'),
      `${this.label}: output does not end with an empty line`
    )
    for (const block of this.raw.slice(0, -2).split('\n\n')) {
      // A streamed analysis starts `=id` and a line feed, then holds info lines only (a
      // genmove_analyze ends with its play line).
      check(
        /^[=?]\d* /.test(block) || /^=\d*(\ninfo [^\n]*)*(\nplay [^\n ]+)?$/.test(block),
        `${this.label}: malformed response block ${JSON.stringify(block.slice(0, 80))}`
      )
    }
    check(
      this.raw.split('\n\n').length - 1 === this.exchanges.length,
      `${this.label}: ${this.raw.split('\n\n').length - 1} response blocks for ` +
        `${this.exchanges.length} commands`
    )
  }

  async stop() {
    await this.controller.stop(3000)
    check(this.exitCode === 0, `${this.label}: exit code ${this.exitCode} after quit`)
  }
}

function commandLine(command) {
  return [command.name, ...(command.args || [])].join(' ')
}

// What Sabaki does when it attaches an engine: four commands written at once.
async function attach(engine) {
  engine.start()
  const [name, version, protocol, commands] = await Promise.all([
    engine.send('name'),
    engine.send('version'),
    engine.send('protocol_version'),
    engine.send('list_commands')
  ])
  check(name.content === 'shicho', `${engine.label}: name is '${name.content}'`)
  check(/^\d+\.\d+\.\d+/.test(version.content), `${engine.label}: version '${version.content}'`)
  check(protocol.content === '2', `${engine.label}: protocol_version '${protocol.content}'`)
  const list = commands.content.split('\n')
  for (const needed of [
    'komi',
    'boardsize',
    'clear_board',
    'play',
    'genmove',
    'undo',
    'set_free_handicap',
    'final_score'
  ]) {
    check(list.includes(needed), `${engine.label}: list_commands lacks ${needed}`)
  }
  check(
    await engine.tracker.knowsCommand('undo'),
    `${engine.label}: the tracker does not see undo`
  )
}

// Sabaki's generateMove: the first genmove_analyze command the engine lists, its reports
// parsed as analysis while it searches, the move from its `play` line.
async function generateMove(engine, color) {
  let name = 'genmove'
  for (const candidate of ['genmove_analyze', 'kata-genmove_analyze', 'lz-genmove_analyze']) {
    if (await engine.tracker.knowsCommand(candidate)) {
      name = candidate
      break
    }
  }
  check(name === 'genmove_analyze', `${engine.label}: no genmove_analyze in list_commands`)
  const reports = []
  const response = await engine.controller.sendCommand({name, args: [color, '50']}, ({line}) => {
    if (line.startsWith('info ')) reports.push(line)
  })
  check(!response.error, `${engine.label}: ${name} ${color} failed: '${response.content}'`)
  const play = response.content.split('\n').find(line => line.startsWith('play '))
  check(play, `${engine.label}: ${name} ${color} has no play line: '${response.content}'`)
  const move = play.slice(5).trim().toUpperCase()
  check(VERTEX_9.test(move), `${engine.label}: ${name} ${color} played '${move}'`)
  for (const report of reports) {
    for (const g of parseReport(report)) {
      check(/^\d+$/.test(g.winrate), `${name} winrate '${g.winrate}'`)
      check(!isNaN(+g.scoreLead), `${name} scoreLead '${g.scoreLead}'`)
    }
  }
  return move
}

// One game, engine against engine, as Sabaki runs it.
async function playGame(black, white) {
  const komi = 6.5
  const boardsize = [9, 9]
  const history = []
  const engines = {B: black, W: white}
  let passes = 0
  let resigned = null
  for (let n = 0; n < MOVE_LIMIT && passes < 2 && !resigned; n++) {
    const color = n % 2 === 0 ? 'B' : 'W'
    const engine = engines[color]
    await engine.tracker.sync({komi, boardsize, history})
    const move = await generateMove(engine, color)
    if (move === 'RESIGN') {
      resigned = color
      break
    }
    history.push({name: 'play', args: [color, move]})
    passes = move === 'PASS' ? passes + 1 : 0
  }
  check(
    passes >= 2 || resigned,
    `the game did not end within ${MOVE_LIMIT} moves (${history.length} played)`
  )
  return {komi, boardsize, history, resigned}
}

// Both engines must hold the whole game: same stones on both.
async function sameStones(black, white) {
  for (const color of ['black', 'white']) {
    const a = await black.send('list_stones', color)
    const b = await white.send('list_stones', color)
    check(
      a.content === b.content,
      `the engines disagree on ${color} stones: '${a.content}' vs '${b.content}'`
    )
  }
}

async function afterTheGame(black, white, game) {
  const state = {komi: game.komi, boardsize: game.boardsize, history: game.history}
  // Sabaki brings both engines to the final position before scoring.
  await black.tracker.sync(state)
  await white.tracker.sync(state)
  await sameStones(black, white)
  const before = (await black.send('list_stones', 'black')).content

  // An undo, as the user stepping back one move; then Sabaki's resync replays it.
  const undone = await black.send('undo')
  check(undone.content === '', `undo answered '${undone.content}'`)
  check(
    black.tracker.state.history.length === game.history.length - 1,
    'the tracker did not record the undo'
  )
  await black.tracker.sync(state)
  check(
    (await black.send('list_stones', 'black')).content === before,
    'undo and resync changed the position'
  )

  const scores = []
  for (const engine of [black, white]) {
    const score = (await engine.send('final_score')).content
    check(SCORE.test(score), `${engine.label}: final_score '${score}'`)
    scores.push(score)
  }
  check(scores[0] === scores[1], `the engines disagree on the score: ${scores.join(' vs ')}`)
  return scores[0]
}

// The tracker's sync on its own: a handicap start, then a history that shares a prefix
// (undo path), then one that shares nothing (clear_board and replay).
async function syncShortHistories(enginePath, engineArgs) {
  const engine = new Engine('tracker', enginePath, engineArgs)
  await attach(engine)
  const play = (c, v) => ({name: 'play', args: [c, v]})
  const handicap = {name: 'set_free_handicap', args: ['D4', 'K10']}
  const sent = []
  engine.controller.on('command-sent', ({command}) => sent.push(commandLine(command)))

  await engine.tracker.sync({
    komi: 0.5,
    boardsize: [13, 13],
    history: [handicap, play('W', 'C3'), play('B', 'C4'), play('W', 'PASS'), play('B', 'E5')]
  })
  check(
    sent.join('|') ===
      'komi 0.5|boardsize 13|clear_board|set_free_handicap D4 K10|play W C3|play B C4|' +
        'play W PASS|play B E5',
    `first sync sent ${sent.join('|')}`
  )
  check(
    (await engine.send('list_stones', 'black')).content === 'K10 E5 C4 D4',
    'sync did not set up the handicap game'
  )

  // Three moves shared, two to take back (the tracker undoes only while fewer moves are
  // undone than kept).
  sent.length = 0
  await engine.tracker.sync({
    komi: 0.5,
    boardsize: [13, 13],
    history: [handicap, play('W', 'C3'), play('B', 'C4'), play('W', 'D6')]
  })
  check(sent.join('|') === 'undo|undo|play W D6', `second sync sent ${sent.join('|')}`)
  check(
    (await engine.send('list_stones', 'black')).content === 'K10 C4 D4' &&
      (await engine.send('list_stones', 'white')).content === 'D6 C3',
    'the undo path left the wrong stones'
  )

  sent.length = 0
  await engine.tracker.sync({
    komi: 0.5,
    boardsize: [13, 13],
    history: [play('B', 'G7'), play('W', 'G6')]
  })
  check(sent.join('|') === 'clear_board|play B G7|play W G6', `third sync sent ${sent.join('|')}`)
  check(
    (await engine.send('list_stones', 'black')).content === 'G7',
    'the replay path left the wrong stones'
  )

  const reports = await analyzeLikeSabaki(engine)

  // An id goes out and comes back (Sabaki itself sends none).
  const withId = await engine.controller.sendCommand({id: 7, name: 'name'})
  check(withId.id === 7 && withId.content === 'shicho', 'the id was not echoed')

  await engine.stop()
  engine.checkRawOutput()
  return reports
}

// Sabaki's reading of one report line (analysis.js parseAnalysis): `info` groups of key/value
// pairs ending with the pv, a run of vertices; win rates as integers for `analyze`.
function parseReport(line) {
  return line
    .split(/\s*info\s+/)
    .slice(1)
    .map(group => {
      const tokens = group.trim().split(/\s+/)
      const pv = tokens.indexOf('pv')
      check(pv >= 0 && pv % 2 === 0, `analysis group without a trailing pv: '${group}'`)
      const fields = {}
      for (let i = 0; i < pv; i += 2) fields[tokens[i]] = tokens[i + 1]
      fields.pv = tokens.slice(pv + 1)
      return fields
    })
}

async function analyzeLikeSabaki(engine) {
  check(await engine.tracker.knowsCommand('analyze'), 'list_commands lacks analyze')
  const reports = []
  const analysis = engine.controller.sendCommand(
    {name: 'analyze', args: ['B', '50']},
    ({line}) => {
      if (line.startsWith('info ')) reports.push(line)
    }
  )
  const started = Date.now()
  while (reports.length < 2) {
    check(Date.now() - started < 30000, 'no analysis reports within 30 s')
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  const [response, abort] = await Promise.all([
    analysis,
    engine.send('protocol_version')
  ])
  check(!response.error, `analyze failed: '${response.content}'`)
  check(abort.content === '2', `protocol_version after analyze answered '${abort.content}'`)
  for (const report of reports) {
    const groups = parseReport(report)
    check(groups.length > 0, `an empty report '${report}'`)
    for (const g of groups) {
      check(/^[A-HJ-N]\d+$/.test(g.move), `analysis move '${g.move}'`)
      check(/^\d+$/.test(g.visits), `analysis visits '${g.visits}'`)
      check(
        /^\d+$/.test(g.winrate) && +g.winrate <= 10000,
        `analyze winrate '${g.winrate}' is not in ten-thousandths`
      )
      check(
        g.pv.length > 0 && g.pv.every(v => /^([A-HJ-N]\d+|PASS)$/i.test(v)),
        `analysis pv '${g.pv.join(' ')}'`
      )
    }
  }
  return reports.length
}

async function main() {
  const enginePath = process.argv[2]
  check(enginePath, 'usage: node tests/sabaki/client.js ENGINE')
  const absolute = path.resolve(enginePath)
  const engineArgs = process.argv.length > 3 ? process.argv.slice(3) : DEFAULT_ENGINE_ARGS
  setTimeout(() => fail(`no result within ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS).unref()

  const black = new Engine('black', absolute, engineArgs)
  const white = new Engine('white', absolute, engineArgs)
  await Promise.all([attach(black), attach(white)])
  const game = await playGame(black, white)
  const sent = black.exchanges.map(x => commandLine(x.command))
  const komiAt = sent.indexOf('komi 6.5')
  check(
    komiAt >= 4 && sent.slice(komiAt, komiAt + 3).join('|') === 'komi 6.5|boardsize 9|clear_board',
    `the first sync sent ${sent.slice(komiAt, komiAt + 3).join('|')}`
  )
  const score = await afterTheGame(black, white, game)
  await black.stop()
  await white.stop()
  black.checkRawOutput()
  white.checkRawOutput()

  const reports = await syncShortHistories(absolute, engineArgs)

  const end = game.resigned ? `${game.resigned} resigned` : 'two passes'
  console.log(
    `sabaki client: ok: ${game.history.length} moves, ${end}, final_score ${score}; ` +
      `tracker sync ok; analysis stopped after ${reports} reports`
  )
}

main().catch(err => fail(err && err.stack ? err.stack : String(err)))
