#!/usr/bin/env node
// The judge's annotations read the way Sabaki and Lizzie read them. A short match between
// scripted fake engines (shicho-match's `examples/fake-engine.rs`) is judged by a fake judge
// with known win rates; then every record is parsed by @sabaki/sgf (Sabaki's own parser), and
//
// 1. every main-line node carries SBKV, read as Sabaki's win-rate graph reads it
//    (`+node.data.SBKV[0]`, Black's win rate in percent), equal to judge.csv's value for
//    that position (the root: before the first move; a move node: after its move);
// 2. every move node carries LZ, read as Lizzie's SGFParser reads it (first line split on
//    spaces: version, win rate, playouts; the win rate is the mover's), consistent with
//    SBKV;
// 3. the moves are the ones judge.csv lists.
//
// Usage: node tests/sabaki/judged-sgf.js target/release/shicho-match \
//          target/debug/examples/fake-engine          (`cargo test` builds the fake engine)

'use strict'

const fs = require('fs')
const os = require('os')
const path = require('path')
const {execFileSync} = require('child_process')
const sgf = require('@sabaki/sgf')

const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'

function fail(message) {
  console.error(`judged sgf: FAIL: ${message}`)
  process.exit(1)
}

function check(condition, message) {
  if (!condition) fail(message)
}

// One CSV line (RFC 4180 quoting) as fields.
function csvFields(line) {
  let fields = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    let c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') {
        quoted = false
      } else {
        field += c
      }
    } else if (c === '"') {
      quoted = true
    } else if (c === ',') {
      fields.push(field)
      field = ''
    } else {
      field += c
    }
  }
  fields.push(field)
  return fields
}

function vertexOf(value, size) {
  if (value === '' || value == null) return 'pass'
  let x = value.charCodeAt(0) - 97
  let y = value.charCodeAt(1) - 97
  return `${LETTERS[x]}${size - y}`
}

const match = process.argv[2]
check(match && fs.existsSync(match), 'give the shicho-match binary')
const fake = process.argv[3]
check(fake && fs.existsSync(fake), 'give the fake engine (cargo test builds target/debug/examples/fake-engine)')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shicho-judged-sgf-'))
const fakeEngine = args => `${fake} ${args}`
execFileSync(
  match,
  [
    '--black', fakeEngine("--name a --moves 'A1 B1'"),
    '--white', fakeEngine("--name b --moves 'J9 resign'"),
    '--size', '9', '-n', '3', '--alternate', '-j', '1', '-q',
    '--random-opening', '2', '--seed', '3',
    '--judge', fakeEngine("--analyze kata --winrates '0.5 0.61 0.525 0.3 0.35 0.875 0.2'"),
    '--judge-visits', '20',
    '-o', dir
  ],
  {stdio: ['ignore', 'ignore', 'inherit']}
)

let lines = fs.readFileSync(path.join(dir, 'judge.csv'), 'utf8').trim().split('\n')
let header = csvFields(lines.shift())
let rows = lines.map(line => {
  let f = csvFields(line)
  let row = {}
  header.forEach((h, i) => (row[h] = f[i]))
  return row
})
let games = [...new Set(rows.map(r => +r.game))]
check(games.length === 3, `judge.csv holds ${games.length} games, not 3`)

for (let game of games) {
  let file = path.join(dir, `game-${String(game).padStart(4, '0')}.sgf`)
  let [root] = sgf.parseFile(file)
  let size = +root.data.SZ[0]
  let moves = rows.filter(r => +r.game === game).sort((a, b) => a.move - b.move)
  // The main line as Sabaki walks it: the first child at every node.
  let nodes = []
  for (let node = root; node != null; node = node.children[0]) nodes.push(node)
  let moveNodes = nodes.filter(n => n.data.B != null || n.data.W != null)
  check(
    moveNodes.length === moves.length,
    `game ${game}: ${moveNodes.length} moves in the record, ${moves.length} judged`
  )
  let sabakiValue = node => node.data.SBKV && +node.data.SBKV[0]
  let rootValue = sabakiValue(root)
  check(
    Number.isFinite(rootValue) && Math.abs(rootValue - 100 * moves[0].black_before) < 0.006,
    `game ${game}: root SBKV ${root.data.SBKV} against ${moves[0].black_before}`
  )
  moveNodes.forEach((node, i) => {
    let row = moves[i]
    let colour = node.data.B != null ? 'B' : 'W'
    check(colour === row.color, `game ${game} move ${i + 1}: colour ${colour} vs ${row.color}`)
    let vertex = vertexOf((node.data.B || node.data.W)[0], size)
    check(vertex === row.vertex, `game ${game} move ${i + 1}: ${vertex} vs ${row.vertex}`)
    let value = sabakiValue(node)
    check(
      Number.isFinite(value) && value >= 0 && value <= 100,
      `game ${game} move ${i + 1}: SBKV ${node.data.SBKV} is no percentage`
    )
    check(
      Math.abs(value - 100 * row.black_after) < 0.006,
      `game ${game} move ${i + 1}: SBKV ${value} against judge.csv ${row.black_after}`
    )
    // Lizzie: `LZ[version winrate playouts]`, the mover's win rate.
    check(node.data.LZ != null, `game ${game} move ${i + 1}: no LZ`)
    let line1 = node.data.LZ[0].split('\n')[0].split(' ')
    check(line1.length >= 3, `game ${game} move ${i + 1}: LZ '${node.data.LZ[0]}'`)
    let mover = parseFloat(line1[1].replace(/,/g, '.'))
    let playouts = parseInt(line1[2].replace(/[^0-9]/g, ''), 10)
    let black = colour === 'B' ? mover : 100 - mover
    check(
      Math.abs(black - value) < 0.06 && playouts === +row.visits,
      `game ${game} move ${i + 1}: LZ ${node.data.LZ[0]} against SBKV ${value}`
    )
  })
}
fs.rmSync(dir, {recursive: true, force: true})
console.log(`judged sgf: ok (${games.length} games read by @sabaki/sgf)`)
