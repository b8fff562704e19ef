// The judge's page: the 复制 buttons and the vote's clocks. No framework, no eval.
"use strict";

function copyText(button) {
  const box = document.getElementById(button.dataset.copy);
  const said = button.parentElement.querySelector(".copied");
  const done = () => { if (said) { said.textContent = "已复制"; setTimeout(() => { said.textContent = ""; }, 2000); } };
  const text = box.value;
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => { fallbackCopy(box); done(); });
  } else {
    fallbackCopy(box);
    done();
  }
}

function fallbackCopy(box) {
  box.focus();
  box.select();
  document.execCommand("copy");
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button.copy");
  if (button) copyText(button);
});

function two(n) { return String(n).padStart(2, "0"); }

function clockText(ms, offsetMinutes) {
  // A moment in the game's time zone (offsetMinutes east of UTC), as the board shows it.
  const d = new Date(ms + offsetMinutes * 60000);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

function tick() {
  for (const clocks of document.querySelectorAll("[data-deadline]")) {
    const deadline = Date.parse(clocks.dataset.deadline);
    const skew = Number(clocks.dataset.boardSkew || "0") * 1000; // board minus this PC
    const offset = Number(clocks.dataset.offset || "0");
    const now = Date.now();
    const pc = clocks.querySelector(".pc-clock");
    const board = clocks.querySelector(".board-clock");
    const left = clocks.querySelector(".left");
    if (pc) pc.textContent = clockText(now, offset);
    if (board && clocks.dataset.boardSkew !== undefined && clocks.dataset.boardSkew !== "") {
      board.textContent = clockText(now + skew, offset);
    }
    if (left) {
      let seconds = Math.round((deadline - (now + skew)) / 1000);
      if (seconds <= 0) {
        left.textContent = "已截止";
      } else {
        const h = Math.floor(seconds / 3600); seconds %= 3600;
        const m = Math.floor(seconds / 60); const s = seconds % 60;
        left.textContent = `还有 ${h ? h + " 小时 " : ""}${two(m)} 分 ${two(s)} 秒`;
      }
    }
  }
}

// The clocks tick in the browser only: an idle page asks the server for nothing.
setInterval(tick, 1000);
document.addEventListener("DOMContentLoaded", tick);
document.addEventListener("htmx:afterSwap", tick);
