// Reads a JSON array of Link field values on stdin and writes, for each,
// what http-link-header's Link.parse returns: {"refs": [...]} or
// {"error": "..."}. Run by TestHTTPLinkHeaderDifferential.
const Link = require('http-link-header')
let input = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (c) => { input += c })
process.stdin.on('end', () => {
  const out = JSON.parse(input).map((value) => {
    try {
      return { refs: Link.parse(value).refs }
    } catch (e) {
      return { error: String(e && e.message) }
    }
  })
  process.stdout.write(JSON.stringify(out))
})
