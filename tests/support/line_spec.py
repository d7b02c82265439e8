"""Validate request bodies against LINE's own OpenAPI description, discriminators included.

The spec (../shared/contracts/line-messaging-api.yml) types messages, Flex containers, Flex
components and actions through OpenAPI discriminators: `type` picks the schema. Plain JSON
Schema ignores `discriminator`, so nested components would go unchecked. Here every schema
that has one gets a dispatching twin (`Name__any`): its own properties, `type` limited to the
mapping's values, and for each value an if/then to the mapped schema. References to the base
point at the twin, except the `allOf` reference by which a mapped schema inherits from its
base (that one must stay plain, or validation would recurse forever).
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

from tests.support.contracts import CONTRACTS, built_once

SPEC = CONTRACTS / "line-messaging-api.yml"
WEBHOOK_SPEC = CONTRACTS / "line-webhook.yml"  # the events LINE sends to a bot


def spec_available(spec: Path = SPEC) -> bool:
    return spec.is_file()


def _name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


@cache
def definitions(path: Path = SPEC) -> dict[str, Any]:
    import yaml

    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    schemas = copy.deepcopy(spec["components"]["schemas"])
    bases = {name: s["discriminator"] for name, s in schemas.items() if "discriminator" in s}
    parent_of = {
        _name(ref): base for base, d in bases.items() for ref in d.get("mapping", {}).values()
    }

    def rewrite(node: Any, owner: str, inherited: bool) -> Any:
        if isinstance(node, list):
            return [rewrite(item, owner, inherited) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = _name(node["$ref"])
            if target in bases and not (inherited and parent_of.get(owner) == target):
                return {"$ref": f"#/definitions/{target}__any"}
            return {"$ref": f"#/definitions/{target}"}
        out = {}
        for key, value in node.items():
            if key == "discriminator":
                continue
            out[key] = (
                [rewrite(v, owner, True) for v in value]
                if key == "allOf"
                else rewrite(value, owner, False)
            )
        return out

    defs = {name: rewrite(schema, name, False) for name, schema in schemas.items()}
    for base, d in bases.items():
        prop, mapping = d["propertyName"], d.get("mapping", {})
        defs[f"{base}__any"] = {
            "allOf": [
                {"$ref": f"#/definitions/{base}"},
                {"properties": {prop: {"enum": sorted(mapping)}}, "required": [prop]},
                *(
                    {
                        "if": {"properties": {prop: {"const": value}}, "required": [prop]},
                        "then": {"$ref": f"#/definitions/{_name(ref)}"},
                    }
                    for value, ref in sorted(mapping.items())
                ),
            ]
        }
    return defs


@built_once
def validator(schema_name: str, spec: Path = SPEC) -> Any:
    """The spec's validator for `schema_name` (the LINE stand-in builds it as it starts)."""
    from jsonschema import Draft7Validator

    root = {"$ref": f"#/definitions/{schema_name}", "definitions": definitions(spec)}
    return Draft7Validator(root)


def spec_errors(schema_name: str, body: Any, spec: Path = SPEC) -> list[str]:
    """Every way `body` breaks the spec's `schema_name`, as 'path: message' lines."""
    return [
        f"{'/'.join(str(p) for p in error.absolute_path) or '(body)'}: {error.message}"
        for error in validator(schema_name, spec).iter_errors(body)
    ]
