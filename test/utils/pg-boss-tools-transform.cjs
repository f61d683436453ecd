/**
 * Jest transform for pg-boss's `src/tools.js` alone: its `delay()` requires `node:timers/promises`
 * on every call, and the loop pg-boss runs while its workers stop (`offWork`) can call it after
 * Jest has torn a test file's environment down, where `require` answers nothing and the file
 * fails although its tests passed. The require is hoisted to the module's load; nothing else
 * changes. Production code never goes through this.
 */
const LAZY = "function delay (ms, error) {\n  const { setTimeout } = require('node:timers/promises')";
const HOISTED = "const { setTimeout } = require('node:timers/promises')\nfunction delay (ms, error) {";

module.exports = {
  process(source) {
    if (!source.includes(LAZY)) {
      throw new Error('pg-boss-tools-transform: pg-boss tools.js changed; review the transform');
    }
    return { code: source.replace(LAZY, HOISTED) };
  },
};
