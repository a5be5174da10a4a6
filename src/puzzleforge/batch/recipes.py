"""Recipes: one YAML file describing a dataset mixture (families, params, counts, tiers, splits).

Why a file: a training mixture is a reviewed artefact (what went into v3 of a dataset?),
so it lives in version control and one command regenerates it byte for byte. Format::

    name: logic-mix          # optional, recorded in meta.recipe
    seed: 7                  # optional; --seed overrides it
    splits: {train: 0.9, test: 0.1}   # optional; keyed by a structural hash
    timeout_per_item: 20     # optional seconds
    components:
      - family: latin        # a registered id, or a spec .yaml path (relative to this file)
        tiers:               # difficulty tiers: one component each
          easy: {count: 60, params: {n: 4}}
          hard: {count: 40, params: {n: 7}}
      - family: specs/knights.yaml
        name: knights
        count: 50            # or weight: 0.5 (share of -n)
        params: {}

With ``-n N`` the counts (or weights) are proportions scaled to N (largest remainder);
without it the counts are used as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, InvalidSpec
from ..core.registry import FAMILIES
from ..core.yamlio import load_yaml, read_yaml_text
from .job import DEFAULT_MAX_ATTEMPTS, BatchJob, Component, Split, family_ref

__all__ = ["is_recipe", "load_recipe"]


def _read(path: Path) -> Any:
    return load_yaml(
        read_yaml_text(path, what="recipe"),
        file=str(path),
        expected="a recipe as described in docs/datasets.md",
    )


def is_recipe(path: str | Path) -> bool:
    """A .yaml/.yml file whose top level has ``components`` is a recipe (not a spec)."""
    path = Path(path)
    if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
        return False
    try:
        data = load_yaml(read_yaml_text(path, what="recipe"), file=str(path))
    except InvalidSpec:
        return False
    return isinstance(data, dict) and "components" in data


def _scale(sizes: list[float], n: int) -> list[int]:
    total = sum(sizes)
    raw = [s * n / total for s in sizes]
    counts = [int(r) for r in raw]
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - counts[i]), i))
    for i in order[: n - sum(counts)]:
        counts[i] += 1
    return counts


def load_recipe(
    path: str | Path,
    *,
    n: int | None = None,
    seed: int | None = None,
    timeout_per_item: float | None = None,
) -> BatchJob:
    """Read a recipe into a BatchJob (every problem listed in one InvalidSpec)."""
    path = Path(path)
    data = _read(path)
    where = str(path)
    if not isinstance(data, dict):
        raise InvalidSpec(
            "a recipe must be a mapping", file=where, expected="keys name, seed, splits, components"
        )
    problems: list[str] = []
    known = {
        "name",
        "seed",
        "splits",
        "components",
        "timeout_per_item",
        "max_attempts",
        "dedupe",
        "audit",
        "description",
    }
    for key in sorted(set(data) - known):
        problems.append(f"unknown key '{key}' (known: {', '.join(sorted(known))})")
    raw_components = data.get("components")
    if not isinstance(raw_components, list) or not raw_components:
        raise InvalidSpec(
            "'components' must be a non-empty list",
            file=where,
            field="components",
            expected="a list of {family, count|weight|tiers, params}",
        )
    entries: list[tuple[str, str, str, dict[str, Any], float]] = []  # ref, name, tier, params, size
    for i, comp in enumerate(raw_components):
        field = f"components[{i}]"
        if not isinstance(comp, dict):
            problems.append(f"{field} must be a mapping")
            continue
        fam = comp.get("family", comp.get("spec"))
        if not isinstance(fam, str) or not fam:
            problems.append(f"{field}.family is missing (a family id or a spec path)")
            continue
        if fam.lower().endswith((".yaml", ".yml")) and not Path(fam).is_absolute():
            fam = str((path.parent / fam).resolve())
        if fam not in FAMILIES and not fam.lower().endswith((".yaml", ".yml")):
            # never a module:attribute reference: a recipe file must not import code
            problems.append(
                f"{field}.family '{fam[:80]}' is neither a registered family "
                f"({', '.join(FAMILIES)}) nor a spec .yaml path"
            )
            continue
        ref = family_ref(fam)
        default_name = Path(fam).stem if fam.lower().endswith((".yaml", ".yml")) else fam
        base_name = str(comp.get("name") or default_name)
        base_params = comp.get("params") or {}
        if not isinstance(base_params, dict):
            problems.append(f"{field}.params must be a mapping")
            continue
        for key in sorted(
            set(comp) - {"family", "spec", "name", "tier", "count", "weight", "params", "tiers"}
        ):
            problems.append(f"{field}: unknown key '{key}'")
        tiers = comp.get("tiers")
        if tiers is not None:
            if not isinstance(tiers, dict) or not tiers:
                problems.append(f"{field}.tiers must map tier names to {{count|weight, params}}")
                continue
            for tier, spec in tiers.items():
                tfield = f"{field}.tiers.{tier}"
                if not isinstance(spec, dict):
                    problems.append(f"{tfield} must be a mapping")
                    continue
                size = spec.get("count", spec.get("weight"))
                if not isinstance(size, (int, float)) or isinstance(size, bool) or size < 0:
                    problems.append(f"{tfield} needs count (records) or weight (share) >= 0")
                    continue
                params = {**base_params, **(spec.get("params") or {})}
                entries.append((ref, f"{base_name}-{tier}", str(tier), params, float(size)))
        else:
            size = comp.get("count", comp.get("weight"))
            if not isinstance(size, (int, float)) or isinstance(size, bool) or size < 0:
                problems.append(f"{field} needs count (records) or weight (share) >= 0")
                continue
            entries.append(
                (ref, base_name, str(comp.get("tier") or ""), dict(base_params), float(size))
            )
    names = [e[1] for e in entries]
    for dup in sorted({x for x in names if names.count(x) > 1}):
        problems.append(f"component name '{dup}' is used twice (give each a distinct name)")
    splits: list[Split] = []
    raw_splits = data.get("splits")
    if raw_splits is not None:
        if not isinstance(raw_splits, dict) or not raw_splits:
            problems.append("splits must map split names to shares, e.g. {train: 0.9, test: 0.1}")
        else:
            splits = [
                Split(str(k), float(v))
                for k, v in raw_splits.items()
                if isinstance(v, (int, float))
            ]
            if len(splits) != len(raw_splits) or abs(sum(s.fraction for s in splits) - 1) > 1e-9:
                problems.append("split shares must be numbers adding up to 1")
    if problems:
        raise InvalidSpec(
            "; ".join(problems), file=where, expected="a recipe as described in docs/datasets.md"
        )
    sizes = [e[4] for e in entries]
    if n is not None:
        if sum(sizes) <= 0:
            raise ConfigError("all component counts are 0", file=where, field="components")
        counts = _scale(sizes, n)
    else:
        if any(s != int(s) for s in sizes):
            raise ConfigError(
                "weights need -n to know the total",
                file=where,
                field="components",
                expected="integer counts, or -n N with weights",
            )
        counts = [int(s) for s in sizes]
    components = tuple(
        Component(ref=e[0], count=c, params=e[3], name=e[1], tier=e[2])
        for e, c in zip(entries, counts, strict=True)
    )
    run_seed = seed if seed is not None else int(data.get("seed", 0))
    timeout = timeout_per_item if timeout_per_item is not None else data.get("timeout_per_item")
    return BatchJob(
        components=components,
        seed=run_seed,
        splits=tuple(splits),
        max_attempts=int(data.get("max_attempts", DEFAULT_MAX_ATTEMPTS)),
        timeout_per_item=float(timeout) if timeout is not None else None,
        dedupe=bool(data.get("dedupe", True)),
        audit=bool(data.get("audit", False)),
        recipe=str(path),
    )
