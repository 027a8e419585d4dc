// Records every Link.parse call of http-link-header's tests with its result.
// Run from the root of a checkout of jhermsmeier/node-http-link-header at the
// commit named in http-link-header.json: node harness.js > cases.json
const Link = require('./lib/link.js')
const path = require('path')
const out = []
let current = []
const origParse = Link.parse
Link.parse = function (value, uri) {
  const rec = { test: current.join(' / '), input: value }
  try {
    const l = origParse.call(Link, value, uri)
    rec.refs = l.refs.map(r => Object.assign({}, r))
  } catch (e) { rec.error = String(e.message) }
  out.push(rec)
  return origParse.call(Link, value, uri)
}
let pending = []
global.context = global.suite = global.describe = (name, fn) => { current.push(name); fn(); current.pop() }
global.test = global.it = (name, fn) => { current.push(name); try { fn() ; } catch (e) { out.push({test: current.join(' / '), failed: String(e.message)}) } current.pop() }
for (const f of ['index.js','api.js','encoding.js','foldline.js','in-the-wild.js','quotes.js','rfc-examples.js']) {
  current.push(f); require(path.resolve('test', f)); current.pop()
}
process.stdout.write(JSON.stringify(out, null, 1))
