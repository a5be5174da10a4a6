"""Find the final answer inside a model's output, the way people score language models.

Why a separate step before a family's ``verify``: a model almost never answers with the bare
answer. It wraps it in ``<answer>`` tags, ``\\boxed{}``, a code fence or a markdown table,
states it after "Final answer:", and surrounds it with reasoning. Scoring the raw text
under-counts every model. Families keep one strict grammar each (their ``verify``); this
module turns a realistic output into the few *candidate* answer strings worth trying, most
explicit first, and normalises the wrapping that carries no meaning (markdown emphasis,
table rules, quotes, a final full stop).

The rule that keeps a wrong answer from scoring 1.0: when the output marks its answer
(tags, boxed, a "final answer" line, a code fence), only the *last* marked answer is a
candidate, so an answer abandoned earlier in the reasoning never counts. Only an unmarked
output yields several candidates: the whole text, its last paragraph and its first one
(answer after or before the reasoning).

>>> final_answer_candidates("Thinking...\\n\\n<answer>B</answer>")
['B']
>>> final_answer_candidates("So x = 3, hence \\\\boxed{42}.")
['42']
>>> final_answer_candidates("**Final answer:** 4, 2.")
['4, 2']
>>> final_answer_candidates("Step 1: try 5.\\n\\n1 2\\n2 1")
['Step 1: try 5.\\n\\n1 2\\n2 1', '1 2\\n2 1', 'Step 1: try 5']
"""

from __future__ import annotations

import re

__all__ = ["final_answer_candidates", "normalise_wrapping", "MAX_OUTPUT_CHARS"]

#: Model outputs longer than this are cut (from the front: the answer comes last) so that
#: scoring stays linear and bounded on pathological inputs.
MAX_OUTPUT_CHARS = 200_000

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.IGNORECASE | re.DOTALL)
_FENCE = re.compile(r"```[^\n`]*\n(.*?)```", re.DOTALL)
# Anywhere in a line: "final answer is", "Final Answer:", "the answer is", "最终答案是", "答案：".
_MARKER = re.compile(
    r"(?i)(?:final\s+answer(?:\s+is)?[ \t*_]*[:：]?|\banswer\s+is[ \t*_]*[:：]?"
    r"|最终答案(?:是|为)?[ \t*_]*[:：]?|答案(?:是|为)[:：]?|答案[ \t*_]*[:：])[ \t*_]*"
)
# At the start of a line only, with its colon: "Answer:", "**Answer**:", "> Answer:".
_LINE_MARKER = re.compile(r"(?im)^[ \t>#*_-]*answer[ \t*_]*[:：][ \t*_]*")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def final_answer_candidates(output: str) -> list[str]:
    """The answer strings worth trying for ``output``, most explicit first (never empty
    unless the output is blank)."""
    text = str(output or "")[-MAX_OUTPUT_CHARS:].replace("\r\n", "\n").strip()
    if not text:
        return []
    marked = _last_marked(text)
    if marked is not None:
        return [normalise_wrapping(marked)]
    paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
    candidates = [text]
    if len(paragraphs) > 1:
        candidates += [paragraphs[-1], paragraphs[0]]
    out: list[str] = []
    for c in candidates:
        c = normalise_wrapping(c)
        if c and c not in out:
            out.append(c)
    return out


def _last_marked(text: str) -> str | None:
    """The content of the last explicit answer marker, or None when the output has none."""
    tags = _ANSWER_TAG.findall(text)
    if tags:
        return tags[-1]
    boxed = _last_boxed(text)
    if boxed is not None:
        return boxed
    markers = list(_MARKER.finditer(text)) + list(_LINE_MARKER.finditer(text))
    if markers:
        rest = text[max(m.end() for m in markers) :]
        first, _, after = rest.partition("\n")
        if first.strip():
            return first
        block = re.split(r"\n\s*\n", after.strip("\n"), maxsplit=1)[0]
        fenced = _FENCE.findall(after)
        if fenced and after.lstrip().startswith("```"):
            return fenced[0]
        return block
    fences = _FENCE.findall(text)
    if fences:
        return fences[-1]
    return None


def _last_boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{...}`` (braces balanced), ``\\text{}`` unwrapped."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    i = start + len("\\boxed{")
    depth = 1
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                inner = text[i:j]
                return re.sub(r"\\text\{([^{}]*)\}", r"\1", inner)
    return None


def normalise_wrapping(answer: str) -> str:
    """Remove wrapping that carries no meaning: fences, markdown emphasis and table rules,
    surrounding quotes or backticks, ``$`` of inline maths, one final full stop."""
    text = answer.strip()
    fenced = _FENCE.fullmatch(text)
    if fenced:
        text = fenced.group(1).strip()
    # a markdown table is recognised by its rule line; only then are outer pipes table
    # syntax (a Masyu answer row such as "|r--7|" draws the loop with them)
    table = any(_TABLE_RULE.match(line) and "-" in line for line in text.split("\n"))
    lines = []
    for line in text.split("\n"):
        if table and _TABLE_RULE.match(line):
            continue
        line = line.replace("**", "").replace("__", "").strip()
        if table and line.startswith("|") and line.endswith("|") and len(line) > 1:
            line = line[1:-1].strip()
        lines.append(line)
    text = "\n".join(lines).strip()
    while len(text) >= 2 and text[0] == text[-1] and text[0] in "`'\"$":
        text = text[1:-1].strip()
    if "\n" not in text and text.endswith(".") and not text.endswith(".."):
        text = text[:-1].rstrip()
    return text
