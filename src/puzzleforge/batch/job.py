"""What a batch run is: one or more components (family + params + count) and a base seed.

Why a plain, picklable description: workers (local processes or Ray tasks) rebuild each
family from its name or file path, never from a pickled family object (families may hold
solvers or compiled specs that do not pickle). The job's fingerprint, stored next to the
output, lets ``--resume`` refuse to continue a file that a different command started.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core.difficulty import TIERS
from ..core.errors import ConfigError, GenerationFailed
from ..core.family import build_params, params_to_dict
from ..core.puzzle import canonical_json
from ..core.registry import FAMILIES, PATH_LOADERS, resolve_family
from ..core.seeding import SEED_MAX, SEED_MIN, derive_seed, stable_hash

__all__ = [
    "Component",
    "BatchJob",
    "Split",
    "family_ref",
    "load_family_ref",
    "DEFAULT_MAX_ATTEMPTS",
]

#: Attempts per item (attempt 0 plus retries with the next derived seed).
DEFAULT_MAX_ATTEMPTS = 4


def family_ref(name_or_path: str) -> str:
    """The string workers rebuild a family from: a registered id, or an absolute file path.

    File paths are made absolute so workers started in another directory (Ray) find them.
    """
    if name_or_path in FAMILIES:
        return name_or_path
    path = Path(name_or_path)
    if path.suffix.lower() in PATH_LOADERS and path.exists():
        return str(path.resolve())
    return name_or_path


def load_family_ref(ref: str, options: dict[str, Any] | None = None) -> Any:
    """Rebuild a family from its ref (registry id, spec path, or ``module:attribute``).

    ``module:attribute`` refs exist for the Python API (plugin families, tests); the CLI
    only passes registered ids and file paths.
    """
    options = dict(options or {})
    if ref in FAMILIES or Path(ref).suffix.lower() in PATH_LOADERS:
        return resolve_family(ref, **options)
    module_name, sep, attribute = ref.partition(":")
    if sep and module_name.replace(".", "").replace("_", "").isalnum() and attribute.isidentifier():
        import importlib

        return getattr(importlib.import_module(module_name), attribute)
    return resolve_family(ref, **options)


@dataclass(frozen=True)
class Split:
    """A named share of the dataset (train 0.9, test 0.1); shares add up to 1."""

    name: str
    fraction: float


@dataclass(frozen=True)
class Component:
    """One family with one parameter set and how many records of it to write.

    ``name`` tells components apart in records (``meta.component``); ``tier`` is the
    difficulty tier a recipe asks for: a family whose params take a ``difficulty`` tier is
    asked for it, and every record must *measure* in that tier (else it is rejected and
    retried); a record's ``meta.tier`` is always the family's own measurement.
    """

    ref: str
    count: int
    params: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    tier: str = ""
    options: dict[str, Any] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        return asdict(self)

    def family_params(self, family: Any) -> dict[str, Any]:
        """The params to build: the recipe's, plus the tier as the family's own
        ``difficulty`` target when it has one and the recipe did not set it."""
        params = dict(self.params)
        fields = getattr(family.Params, "__dataclass_fields__", {})
        if self.tier and "difficulty" in fields and "difficulty" not in params:
            params["difficulty"] = self.tier
        return params


@dataclass(frozen=True)
class BatchJob:
    """A whole run: components are generated in order into one dataset.

    Item ``i`` of component ``k`` uses ``derive_seed(component_seed(k), family.name, i)``,
    retry ``a`` uses ``derive_seed(..., i, a)``; nothing depends on workers or chunking.
    """

    components: tuple[Component, ...]
    seed: int
    splits: tuple[Split, ...] = ()
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    timeout_per_item: float | None = None
    dedupe: bool = True
    recipe: str | None = None
    audit: bool = False  # also run family.audit on each puzzle (slower, exact)

    @property
    def total(self) -> int:
        return sum(c.count for c in self.components)

    def component_seed(self, k: int) -> int:
        """Base seed of component ``k``: the run seed for a single-family run, derived otherwise.

        Why derived: two tiers of one family in a recipe must not start from the same seeds.
        """
        if len(self.components) == 1 and not self.recipe:
            return self.seed
        comp = self.components[k]
        return derive_seed(self.seed, "component:" + (comp.name or str(k)), k)

    def fingerprint(self) -> dict[str, Any]:
        """Everything that decides the records' content (not the count, workers or format)."""
        return {
            "components": [
                {
                    "ref": c.ref,
                    "params": c.params,
                    "name": c.name,
                    "tier": c.tier,
                    "options": c.options,
                }
                for c in self.components
            ],
            "seed": self.seed,
            "splits": [[s.name, s.fraction] for s in self.splits],
            "max_attempts": self.max_attempts,
            "dedupe": self.dedupe,
            "audit": self.audit,
        }

    def fingerprint_hash(self) -> str:
        return stable_hash("job", canonical_json(self.fingerprint()), digest_size=8)

    def validate(self) -> list[Any]:
        """Resolve every family and validate its params now (clear errors before any work).

        Returns the families in component order; raises ConfigError / UnknownFamily.
        """
        problems = []
        if not self.components:
            problems.append("no components to generate")
        if not SEED_MIN <= self.seed <= SEED_MAX:
            problems.append(
                f"seed {self.seed}; expected a whole number from {SEED_MIN} to {SEED_MAX} (64-bit)"
            )
        if self.max_attempts < 1:
            problems.append(f"max_attempts={self.max_attempts}; expected >= 1")
        if self.timeout_per_item is not None and not (
            math.isfinite(self.timeout_per_item) and self.timeout_per_item > 0
        ):
            problems.append(
                f"--timeout-per-item {self.timeout_per_item}; expected a finite "
                "number of seconds > 0"
            )
        if self.splits:
            total = sum(s.fraction for s in self.splits)
            if abs(total - 1.0) > 1e-9 or any(s.fraction <= 0 for s in self.splits):
                problems.append(
                    f"split fractions {[s.fraction for s in self.splits]} must be > 0 "
                    "and add up to 1"
                )
        for c in self.components:
            if c.count < 0:
                problems.append(f"component '{c.name or c.ref}' count {c.count}; expected >= 0")
            if c.tier and c.tier not in TIERS:
                problems.append(
                    f"component '{c.name or c.ref}' tier {c.tier!r}; expected one of "
                    f"{', '.join(TIERS)}"
                )
        if problems:
            raise ConfigError("; ".join(problems), file=self.recipe)
        families = []
        for c in self.components:
            family = load_family_ref(c.ref, c.options)
            params = build_params(
                family.Params,
                c.family_params(family),
                family=family.name,
                source=f"components.{c.name}.params" if self.recipe else "params",
            )
            _check_capacity(family, params, c, self.dedupe, self.recipe)
            families.append(family)
        return families


def _check_capacity(
    family: Any, params: Any, component: Component, dedupe: bool, recipe: str | None
) -> None:
    """Fail at once when a family says it cannot give ``component.count`` distinct puzzles.

    Why up front: without it the runner only notices an exhausted space after thousands of
    duplicate attempts (minutes for file-backed families). ``capacity`` is an optional
    Family member: an exact count, or None when the space is unbounded or unknown.
    """
    capacity = getattr(family, "capacity", None)
    limit = capacity(params) if dedupe and callable(capacity) else None
    if limit is not None and component.count > limit:
        raise GenerationFailed(
            f"family '{family.name}' can give at most {limit} distinct puzzle"
            f"{'' if limit == 1 else 's'} with these params; {component.count} were asked for"
            + (f" (component '{component.name}' of {recipe})" if recipe else ""),
            attempts=0,
            reasons={"space exhausted": 1},
            hint=f"Ask for at most {limit}, or widen the params",
        )


def normalised_params(family: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Params as the family's JSON dict (defaults filled in), for fingerprints and summaries."""
    return params_to_dict(build_params(family.Params, params, family=family.name))
