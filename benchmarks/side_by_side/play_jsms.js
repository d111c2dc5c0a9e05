// Plays David Hill's JSMinesweeper solver, its source unmodified, on mine layouts that
// textmines exported (benchmarks/side_by_side.py writes them), one game after another, and
// writes one line a game. Run by side_by_side.py; by hand:
//
//   node play_jsms.js --src JSMinesweeper/Minesweeper --boards boards.json \
//        --shard 0 --shards 1 --out results.txt
//
// A line: seed, 1 won / 0 lost, milliseconds, guesses, the end state, the layout's hash (as
// read back from JSMinesweeper's own game, checked against the export) and the guesses made,
// "x,y" each, joined by ";" ("-" for none): the pairing finds where the two solvers part.
//
// The solver's files are browser scripts sharing one global scope, so they are run into
// this process's global scope in the order index.html loads them; main.js (the page) is
// not loaded: the few globals it gives the solver are set below, as main.js sets them, and
// the loop is main.js bulkRun()'s, with its options (no flags, advanced guessing, full
// probability).
"use strict";

const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const SOLVER_FILES = [
    "Utility/PrimeSieve.js",
    "Utility/Binomial.js",
    "client/Tile.js",
    "client/Board.js",
    "client/MinesweeperGame.js",
    "client/SolutionCounter.js",
    "client/solver_probability_engine.js",
    "client/Brute_force.js",
    "client/BruteForceAnalysis.js",
    "client/EfficiencyHelper.js",
    "client/FiftyFiftyHelper.js",
    "client/LongTermRiskHelper.js",
    "client/solver_main.js",
];

// What main.js declares for the solver (analysis off: play mode), and its start-up cache.
const PAGE_GLOBALS = `
var analysisMode = false;
var analysing = false;
var oldrng = false;
var MAX_BINOMIAL_N = 65000;
var BOMB = 9;
var board = null;
var binomialCache = new BinomialCache(5000, 500, new Binomial(MAX_BINOMIAL_N, 500));
function showMessage(text) {}
async function sleep(msec) { return new Promise(resolve => setImmediate(resolve)); }
`;

function parseArgs(argv) {
    const args = { shard: 0, shards: 1 };
    for (let i = 0; i < argv.length; i += 2) {
        const key = argv[i].replace(/^--/, "");
        args[key] = argv[i + 1];
    }
    for (const needed of ["src", "boards", "out"]) {
        if (!args[needed]) throw new Error(`--${needed} is required`);
    }
    args.shard = Number(args.shard);
    args.shards = Number(args.shards);
    return args;
}

function loadSolver(src) {
    for (const file of SOLVER_FILES) {
        vm.runInThisContext(fs.readFileSync(path.join(src, file), "utf8"), { filename: file });
    }
    vm.runInThisContext(PAGE_GLOBALS, { filename: "page-globals.js" });
}

function layoutHash(mines) {
    return crypto.createHash("sha256").update(mines.join(",")).digest("hex").slice(0, 16);
}

// A game of JSMinesweeper's own with the exported layout, checked cell by cell.
function dealt(doc, entry, startIndex, gameType) {
    const { width, height, mines } = doc;
    const game = new ServerGame(0, width, height, mines, startIndex, entry.seed, gameType);
    const layout = [width, height, mines];
    for (const index of entry.mines) layout.push(index % width, Math.floor(index / width));
    game.resetMinesUsingArray(layout);
    const placed = [];
    for (let i = 0; i < width * height; i++) if (game.getTile(i).isBomb()) placed.push(i);
    const hash = layoutHash(placed);
    if (hash !== entry.sha || placed.length !== mines) {
        throw new Error(`seed ${entry.seed}: the layout read back differs from the export`);
    }
    const first = game.getTile(startIndex);
    if (first.isBomb() || (doc.rule === "opening" && first.getValue() !== 0)) {
        throw new Error(`seed ${entry.seed}: the first click breaks the rule ${doc.rule}`);
    }
    return { game, hash };
}

async function playOne(doc, entry, options) {
    const { width, height, mines } = doc;
    const [fx, fy] = doc.first_click;
    const startIndex = fy * width + fx;
    const gameType = doc.rule === "opening" ? "zero" : "safe";
    const { game, hash } = dealt(doc, entry, startIndex, gameType);
    const started = process.hrtime.bigint();
    const seen = new Board(0, width, height, mines, entry.seed, gameType);
    globalThis.board = seen; // the page's global board is the one being solved
    let revealed = game.clickTile(game.getTile(startIndex));
    applyResults(seen, revealed);
    const guesses = [];
    let state = null;
    let turns = 0;
    while (revealed.header.status === IN_PLAY && state === null) {
        if (++turns > 10000) {
            state = "stuck";
            break;
        }
        const actions = (await solver(seen, options)).actions;
        for (let i = 0; i < actions.length; i++) {
            const action = actions[i];
            if (action.action !== ACTION_CLEAR) continue; // never asked for in no-flag play
            if (i > 0 && action.prob !== 1) break; // bulkRun: a guess only as the first action
            if (action.prob !== 1) guesses.push(`${action.x},${action.y}`);
            revealed = game.clickTile(game.getTile(seen.xy_to_index(action.x, action.y)));
            if (revealed.header.status !== IN_PLAY) break;
            applyResults(seen, revealed);
            if (action.prob !== 1) break;
        }
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    state = state || revealed.header.status;
    const won = state === WON ? 1 : 0;
    const list = guesses.length ? guesses.join(";") : "-";
    return `${entry.seed} ${won} ${ms.toFixed(1)} ${guesses.length} ${state} ${hash} ${list}`;
}

async function main() {
    const args = parseArgs(process.argv.slice(2));
    // The solver writes its own notes with console.log: to a log beside the results.
    const notes = fs.createWriteStream(args.out + ".log");
    console.log = (...parts) => notes.write(parts.join(" ") + "\n");
    loadSolver(args.src);
    const doc = JSON.parse(fs.readFileSync(args.boards, "utf8"));
    const mine = doc.boards.filter((_, i) => i % args.shards === args.shard);
    const options = {
        playStyle: PLAY_STYLE_NOFLAGS,
        verbose: false,
        advancedGuessing: true,
        fullProbability: true,
        hardcore: false,
    };
    await solver(null, null); // as the page does once: sets solver.countSolutions
    const out = fs.openSync(args.out, "w");
    for (const entry of mine) {
        let line;
        try {
            line = await playOne(doc, entry, options);
        } catch (error) {
            if (String(error).includes("layout")) throw error;
            line = `${entry.seed} 0 0 0 error - -`;
            notes.write(`seed ${entry.seed}: ${error && error.stack}\n`);
        }
        fs.writeSync(out, line + "\n");
    }
    fs.closeSync(out);
    notes.end();
}

main().catch(error => {
    process.stderr.write(`play_jsms.js: ${error && error.stack || error}\n`);
    process.exit(1);
});
