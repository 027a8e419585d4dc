// Follows a scan's event stream: each progress event adds a finished check,
// the done or failed event reloads the page, which then shows the report or
// the reason. Without scripts, reloading the page does the same.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var list = document.getElementById("checks");
  var bar = document.getElementById("progress");
  var count = document.getElementById("count");
  var text = document.getElementById("status-text");
  var seen = {};
  Array.prototype.forEach.call(list.children, function (li) { seen[li.getAttribute("data-check")] = true; });
  var es = new EventSource(live.getAttribute("data-events"));
  es.addEventListener("progress", function (e) {
    var p = JSON.parse(e.data);
    text.textContent = "Scanning…";
    if (seen[p.check]) return;
    seen[p.check] = true;
    var li = document.createElement("li");
    li.setAttribute("data-check", p.check);
    li.className = "v-" + p.verdict;
    var code = document.createElement("code");
    code.textContent = p.check;
    li.appendChild(code);
    li.appendChild(document.createTextNode(" " + p.verdict));
    list.appendChild(li);
    bar.value = p.done;
    count.textContent = String(p.done);
  });
  function finish() { es.close(); text.textContent = "Finished; loading the report…"; window.location.reload(); }
  es.addEventListener("done", finish);
  es.addEventListener("failed", finish);
})();
