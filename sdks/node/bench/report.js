// Writes what mint-bench.js measured, with how and where it was measured, as JSON and Markdown.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

export const STAT_KEYS = ['avg', 'min', 'p25', 'p50', 'p75', 'p99', 'max'];

function packageVersion(name) {
  const path = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(path, 'utf8')).version;
}

function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    node: process.version,
    packages: Object.fromEntries(['mitata', 'hash-wasm', '@node-rs/xxhash', 'uuidv7'].map((n) => [n, packageVersion(n)])),
  };
}

function toJson(command, groups) {
  return {
    command,
    date: new Date().toISOString(),
    machine: machine(),
    tool: 'mitata measure() with batching off: each sample is one run of many IDs or hashes; stats over samples, divided by the items per run',
    groups: groups.map((group) => ({
      name: group.name,
      unit: group.unit,
      cases: group.cases.map(({ name, stats }) => ({
        name,
        ...Object.fromEntries(STAT_KEYS.map((key) => [`${key}_ns`, stats[key]])),
        samples: stats.samples.length,
      })),
    })),
  };
}

const ns = (value) => value.toFixed(1);

function groupTable(group) {
  const first = group.cases[0];
  const lines = [
    `## ${group.name} (${group.unit})`,
    '',
    `| case | p50 | p25-p75 | avg | p99 | min-max | samples | ${first.name} p50 / p50 |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const c of group.cases) {
    lines.push(`| ${c.name} | ${ns(c.p50_ns)} | ${ns(c.p25_ns)}-${ns(c.p75_ns)} | ${ns(c.avg_ns)} | ${ns(c.p99_ns)} `
      + `| ${ns(c.min_ns)}-${ns(c.max_ns)} | ${c.samples} | ${(first.p50_ns / c.p50_ns).toFixed(2)}x |`);
  }
  return lines.join('\n');
}

function toMarkdown(report) {
  const { machine: m } = report;
  const packages = Object.entries(m.packages).map(([n, v]) => `${n} ${v}`).join(', ');
  return [
    '# Node: minting a message ID, mint only',
    '',
    `- command (from the repo root): \`${report.command}\``,
    `- date: ${report.date}`,
    `- machine: ${m.cpu}, ${m.cores} cores; node ${m.node}; ${packages}`,
    `- tool: ${report.tool}`,
    '- central figure p50 with p25-p75 as spread; avg and max also carry GC pauses and the load of a shared',
    '  machine, so ratios are of p50',
    '',
    ...report.groups.flatMap((group) => [groupTable(group), '']),
  ].join('\n');
}

export function writeReports(outDir, command, groups) {
  const report = toJson(command, groups);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'sdk-node-mint.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(outDir, 'sdk-node-mint.md'), toMarkdown(report));
}
