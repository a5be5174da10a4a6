"""score_answer on realistic model outputs: every family, many wrappings, near misses.

The expected values are independent of the scorer: the record's own stored answer (proven
unique by the generator) wrapped the ways models wrap answers must score 1.0, and a
near miss (a different answer of the same shape, so wrong because the puzzle is unique)
or an answer abandoned for a wrong final one must score below 1.0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzleforge.api import generate
from puzzleforge.batch.scoring import score_file
from puzzleforge.core.extract import final_answer_candidates
from puzzleforge.core.registry import family_names
from puzzleforge.dataset import score_answer

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "puzzleclone"


def _wrappings(answer: str) -> dict[str, str]:
    multi = "\n" in answer
    table = "\n".join(
        [
            "| " + " | ".join(line.split()) + " |"
            if " " in line
            else "| " + " | ".join(line) + " |"
            for line in answer.splitlines()[:1]
        ]
        + [
            "|"
            + "---|"
            * max(
                1,
                len(answer.splitlines()[0].split())
                if " " in answer.splitlines()[0]
                else len(answer.splitlines()[0]),
            )
        ]
        + [
            "| " + " | ".join(line.split()) + " |"
            if " " in line
            else "| " + " | ".join(line) + " |"
            for line in answer.splitlines()[1:]
        ]
    )
    forms = {
        "bare": answer,
        "padded": f"\n\n  {answer}  \n",
        "fence": f"```\n{answer}\n```",
        "fence-lang": f"```text\n{answer}\n```",
        "answer-tags": f"<answer>\n{answer}\n</answer>",
        "answer-tags-after-reasoning": f"I checked every row twice.\n\n<answer>{answer}</answer>",
        "final-answer-block": f"Let me reason step by step.\nRow 1 has 3 cells.\n\nFinal answer:\n{answer}",
        "bold-final-answer": f"Reasoning...\n\n**Final Answer:**\n\n{answer}"
        if multi
        else f"Reasoning...\n\n**Final Answer:** {answer}",
        "leading-reasoning": f"First I try 5, then 7, which fails.\nSo the grid is forced.\n\n{answer}",
        "trailing-remark": f"{answer}\n\nI hope this helps!",
        "final-answer-fence": f"Thinking done.\nFinal answer:\n```\n{answer}\n```",
        "changed-mind": f"<answer>{_near_miss(answer)}</answer>\nWait, that is wrong.\n<answer>{answer}</answer>",
    }
    if multi and " ~ " not in answer and "|" not in answer:  # masyu draws with "|"
        forms["markdown-table"] = table
    if " ~ " in answer:  # logic grid: a markdown table with a header row
        forms["markdown-table"] = "| a | b | c |\n|---|---|---|\n" + "\n".join(
            "| " + line.replace(" ~ ", " | ") + " |" for line in answer.splitlines()
        )
    if multi and set(answer) <= set("01\n"):  # shaded/white grids drawn with symbols
        forms["unicode-squares"] = answer.replace("1", "■").replace("0", "□")
        forms["hash-dot"] = answer.replace("1", "#").replace("0", ".")
    if not multi:
        forms["boxed"] = f"Therefore the result is $\\boxed{{{answer}}}$."
        forms["answer-is-sentence"] = f"After checking all cases, the answer is {answer}."
        forms["quoted"] = f'Final answer: "{answer}"'
    return forms


def _near_miss(answer: str) -> str:
    """A different answer of the same shape."""
    lines = answer.splitlines()
    if len(lines) >= 2:
        for i in range(len(lines)):
            for j in range(i + 1, len(lines)):
                a, b = lines[i], lines[j]
                if a and b and a[-1] != b[-1] and " ~ " not in a:
                    lines[i], lines[j] = a[:-1] + b[-1], b[:-1] + a[-1]
                    return "\n".join(lines)
                if " ~ " in a and a.rsplit(" ~ ", 1)[1] != b.rsplit(" ~ ", 1)[1]:
                    ha, ta = a.rsplit(" ~ ", 1)
                    hb, tb = b.rsplit(" ~ ", 1)
                    lines[i], lines[j] = f"{ha} ~ {tb}", f"{hb} ~ {ta}"
                    return "\n".join(lines)
    for k, ch in enumerate(answer):
        if ch.isdigit():
            return answer[:k] + str((int(ch) + 1) % 10) + answer[k + 1 :]
        if ch.isalpha() and ch.isascii():
            return answer[:k] + ("B" if ch.upper() == "A" else "A") + answer[k + 1 :]
    raise AssertionError(f"no near miss for {answer!r}")


def _targets() -> list[str]:
    names = list(family_names())
    if CORPUS.is_dir():
        names += [str(CORPUS / "44-chess.yaml"), str(CORPUS / "1-hamburger.yaml")]
    return names


@pytest.fixture(scope="module", params=_targets(), ids=lambda n: Path(n).stem)
def record(request):
    return generate(request.param, seed=3).to_record()


def test_every_wrapping_of_the_right_answer_scores_one(record):
    failures = {
        name: score_answer(text, record)
        for name, text in _wrappings(record["answer"]).items()
        if score_answer(text, record) != 1.0
    }
    assert failures == {}


def test_near_misses_and_abandoned_answers_score_below_one(record):
    wrong = _near_miss(record["answer"])
    assert wrong != record["answer"]
    for name, text in _wrappings(wrong).items():
        if name == "changed-mind":  # its last answer is the near miss's own near miss
            continue
        assert score_answer(text, record) < 1.0, name
    right_then_wrong = (
        f"<answer>{record['answer']}</answer>\nNo, I correct myself.\n<answer>{wrong}</answer>"
    )
    assert score_answer(right_then_wrong, record) < 1.0
    assert score_answer("", record) == 0.0
    assert score_answer("I cannot solve this puzzle.", record) == 0.0


def test_the_score_command_reads_wrapped_answers(tmp_path):
    records = [generate("latin", seed=s).to_record() for s in (1, 2)]
    import orjson

    data = tmp_path / "d.jsonl"
    data.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    answers = tmp_path / "a.jsonl"
    answers.write_bytes(
        orjson.dumps({"id": records[0]["id"], "response": f"```\n{records[0]['answer']}\n```"})
        + b"\n"
        + orjson.dumps(
            {
                "id": records[1]["id"],
                "response": f"Final answer:\n{_near_miss(records[1]['answer'])}",
            }
        )
        + b"\n"
    )
    report = score_file(data, answers).to_dict()
    assert report["overall"]["n"] == 2
    assert report["overall"]["correct"] == 1


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<answer> B </answer>", ["B"]),
        ("<ANSWER>1</ANSWER> and later <answer>2</answer>", ["2"]),
        ("\\boxed{\\text{A, C}}", ["A, C"]),
        ("\\boxed{x^{2}}", ["x^{2}"]),
        ("The final answer is 42.", ["42"]),
        ("Answer format: one line per row.\n\nAnswer:\n1 2\n2 1\n\nDone.", ["1 2\n2 1"]),
        ("最终答案是：2", ["2"]),
        ("答案：B", ["B"]),
        ("| 1 | 2 |\n|---|---|\n| 2 | 1 |", ["1 | 2\n2 | 1"]),
        ("notes\n\n```python\nx = 1\n```\n\n```\n1 2\n```", ["1 2"]),
        ("   ", []),
        (".r--7.\n|r--7|\n....LJ", [".r--7.\n|r--7|\n....LJ"]),  # Masyu's pipes are no table
    ],
)
def test_candidates(text, expected):
    assert final_answer_candidates(text) == expected
