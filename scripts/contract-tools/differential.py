#!/usr/bin/env python3
"""`scenario verify --openapi` against a reference validator, openapi-core, on public documents.

For each document, every operation's documented JSON answers are made from their schemas (every
property, a value of its type, format and bounds), and beside each a planted change: a required
member taken away, a member of the wrong type, an enum value outside the list, null where the
schema takes none, a status the operation does not list, a required header left out, a path and
a method the document does not have. The exchanges are written as scenarios (one per operation),
`scenario verify` gives its verdict on each, openapi-core's `validate_response` gives its own, and
the two must agree: conforming, or refused. Differences where openapi-core is known to be wrong
are listed with why, and do not fail; an exchange verify could not check is listed, not compared.
The YAML and JSON forms of one document must give verify the same verdicts.

    differential.py --scenario PATH --documents DIR --work DIR
Prints a line per document and, last, {"passed": N, "failed": N} as JSON.
"""
import argparse, collections, copy, json, pathlib, re, subprocess, sys, time, urllib.parse

import yaml
from openapi_core import OpenAPI
from werkzeug.datastructures import Headers

from shared import Request, merge

METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]


def core_loader():
    """YAML 1.2's core schema, as verify reads it: only true/false are booleans, no timestamps."""

    class Core(yaml.SafeLoader):
        pass

    Core.yaml_implicit_resolvers = {
        first: [(tag, pattern) for tag, pattern in resolvers if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Core.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    return Core


def load(path):
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else textual_keys(yaml.load(text, Loader=core_loader()))


def textual_keys(value):
    """Keys as text, as JSON has them and verify reads them (`200:` is the key "200")."""
    if isinstance(value, dict):
        return {str(key).lower() if isinstance(key, bool) else str(key): textual_keys(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [textual_keys(inner) for inner in value]
    return value


def from_pattern(pattern):
    """A string `pattern` matches, for the simple forms documents use (`^AC[0-9a-fA-F]{32}$`); None
    for one with groups or alternatives."""
    if any(mark in pattern for mark in "(|"):
        return None
    out, index = "", 0
    while index < len(pattern):
        char = pattern[index]
        index += 1
        if char in "^$":
            continue
        if char == "\\":
            escaped = pattern[index]
            index += 1
            piece = {"d": "1", "w": "a", "s": " "}.get(escaped, escaped)
        elif char == "[":
            end = pattern.index("]", index)
            body = pattern[index:end].lstrip("^")
            index = end + 1
            piece = body[0] if body and body[0] != "\\" else {"d": "1", "w": "a"}.get(body[1:2], "a")
        elif char == ".":
            piece = "a"
        else:
            piece = char
        count = 1
        if index < len(pattern) and pattern[index] == "{":
            end = pattern.index("}", index)
            count = int(pattern[index + 1:end].split(",")[0] or 0)
            index = end + 1
        elif index < len(pattern) and pattern[index] in "+*?":
            count = 0 if pattern[index] in "*?" else 1
            index += 1
        out += piece * count
    return out if re.search(pattern, out) else None


class Maker:
    """Values of a document's schemas."""

    def __init__(self, document):
        self.document = document
        self.v31 = str(document.get("openapi", "")).startswith("3.1")

    def resolve(self, node):
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 50:
            target = self.document
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[urllib.parse.unquote(part).replace("~1", "/").replace("~0", "~")]
            node = target
            seen += 1
        return node

    def flat(self, schema, depth=0):
        """The schema with its allOf parts merged in (properties, required), for planting."""
        schema = self.resolve(schema)
        if not isinstance(schema, dict) or depth > 10:
            return {}
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema.get("allOf") or []:
            part = self.flat(part, depth + 1)
            merged.setdefault("properties", {})
            merged["properties"] = {**part.get("properties", {}), **merged["properties"]}
            merged["required"] = list(dict.fromkeys((merged.get("required") or []) + (part.get("required") or [])))
            if "type" in part and "type" not in merged:
                merged["type"] = part["type"]
        return merged

    def value(self, schema, depth=0):
        schema = self.resolve(schema)
        if not isinstance(schema, dict):
            return None
        if depth > 8:
            return None
        if "example" in schema and not self.v31:
            return copy.deepcopy(schema["example"])
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return next((v for v in schema["enum"] if v is not None), None)
        if "allOf" in schema:
            out = None
            for part in schema["allOf"] + [{k: v for k, v in schema.items() if k != "allOf"}]:
                out = merge(out, self.value(part, depth + 1))
            return out
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return self.value(schema[key][0], depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind is None:
            kind = "object" if "properties" in schema else "string" if any(k in schema for k in ("format", "pattern", "minLength")) else None
        if kind == "object":
            properties = schema.get("properties") or {}
            required = schema.get("required") or []
            names = list(properties) if depth < 5 else [n for n in properties if n in required]
            out = {name: self.value(properties[name], depth + 1) for name in names}
            for name in required:
                out.setdefault(name, "x")
            return out
        if kind == "array":
            count = max(1, schema.get("minItems", 0)) if depth < 6 else schema.get("minItems", 0)
            return [self.value(schema.get("items") or {}, depth + 1) for _ in range(count)]
        if kind == "integer":
            return int(schema.get("minimum", 1)) + (1 if schema.get("exclusiveMinimum") is True else 0)
        if kind == "number":
            return float(schema.get("minimum", 1.5)) + (1 if schema.get("exclusiveMinimum") is True else 0)
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        if kind == "string":
            text = {"date-time": "2026-10-21T07:28:00Z", "date": "2026-10-21", "email": "ana@example.com",
                    "uuid": "123e4567-e89b-12d3-a456-426614174000", "uri": "https://example.com/a", "byte": "aGVsbG8="}.get(
                schema.get("format"), "text")
            if "pattern" in schema and not schema.get("format"):
                try:
                    text = from_pattern(schema["pattern"]) or text
                except (ValueError, IndexError, re.error):
                    pass
            if "minLength" in schema and len(text) < schema["minLength"]:
                text = text + "x" * (schema["minLength"] - len(text))
            if "maxLength" in schema:
                text = text[: schema["maxLength"]]
            return text
        return "any"

    def plants(self, schema, value):
        """(label, changed value) for each change planted in the body."""
        flat = self.flat(schema)
        if not isinstance(value, dict) or not isinstance(flat.get("properties"), dict):
            return []
        found = []
        properties = flat["properties"]
        required = [name for name in flat.get("required") or [] if name in value]
        if required:
            changed = copy.deepcopy(value)
            changed.pop(required[0])
            found.append(("required", changed))
        for name, inner in properties.items():
            inner = self.flat(inner)
            if name not in value or not isinstance(inner, dict):
                continue
            kind = inner.get("type")
            if kind in ("string", "integer", "number", "boolean", "object", "array") and "type" not in [f[0] for f in found]:
                changed = copy.deepcopy(value)
                changed[name] = 12345 if kind in ("string", "boolean", "object", "array") else "not a number"
                found.append(("type", changed))
            if "enum" in inner and None not in inner["enum"] and "enum" not in [f[0] for f in found]:
                changed = copy.deepcopy(value)
                changed[name] = "not-one-of-them-zz" if not any(isinstance(v, str) and v == "not-one-of-them-zz" for v in inner["enum"]) else 0
                found.append(("enum", changed))
            if "null" not in [f[0] for f in found]:
                changed = copy.deepcopy(value)
                changed[name] = None
                found.append(("null", changed))
        return found


def server_of(document):
    for server in document.get("servers") or []:
        url = server.get("url", "")
        # A templated server URL with the defaults of its variables, as a client would call it.
        for name, variable in (server.get("variables") or {}).items():
            url = url.replace("{" + name + "}", str(variable.get("default", "")))
        if "://" in url and "{" not in url:
            parts = urllib.parse.urlsplit(url)
            return f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")
    return "http://localhost", ""


def fill_path(maker, template, operation, item):
    parameters = {}
    for parameter in (item.get("parameters") or []) + (operation.get("parameters") or []):
        parameter = maker.resolve(parameter)
        if parameter.get("in") == "path":
            parameters[parameter["name"]] = parameter.get("schema") or {"type": "string"}

    def value(match):
        schema = maker.resolve(parameters.get(match.group(1), {"type": "string"}))
        made = maker.value(schema)
        if made is None or made == "" or isinstance(made, bool):
            made = "a1"
        return urllib.parse.quote(str(made), safe="")

    return re.sub(r"\{([^}]+)\}", value, template)


def cases_of(document):
    """Every exchange to try: (id, method, path, status, headers, body or None, planted label)."""
    maker = Maker(document)
    _, prefix = server_of(document)
    cases = []
    for template, item in (document.get("paths") or {}).items():
        item = maker.resolve(item)
        operations = [(m, item[m]) for m in METHODS if isinstance(item.get(m), dict)]
        for method, operation in operations:
            path = prefix + fill_path(maker, template, operation, item)
            responses = operation.get("responses") or {}
            statuses = [code for code in responses if re.fullmatch(r"[1-5]\d\d", str(code))]
            for code in statuses:
                response = maker.resolve(responses[code])
                headers = {}
                required_headers = []
                for name, header in (response.get("headers") or {}).items():
                    header = maker.resolve(header)
                    if name.lower() == "content-type":
                        continue
                    if header.get("required"):
                        made = maker.value(header.get("schema") or {"type": "string"})
                        headers[name] = str(made if not isinstance(made, bool) else str(made).lower())
                        required_headers.append(name)
                content = response.get("content") or {}
                media = next((t for t in content if t.split(";")[0].strip() == "application/json" or t.endswith("+json")), None)
                if media is None:
                    continue
                schema = (content[media] or {}).get("schema")
                if schema is None:
                    continue
                body = maker.value(schema)
                base = f"{method.upper()} {template} {code}"
                headers = dict(headers, **{"Content-Type": media.split(";")[0].strip()})
                cases.append((base, method, path, int(code), headers, body, "as documented"))
                for label, changed in maker.plants(schema, body):
                    cases.append((f"{base} [{label}]", method, path, int(code), headers, changed, label))
                if required_headers:
                    cases.append((f"{base} [header]", method, path, int(code),
                                  {k: v for k, v in headers.items() if k != required_headers[0]}, body, "header"))
            if statuses and "default" not in responses and not any(re.fullmatch(r"[1-5]XX", str(c)) for c in responses):
                cases.append((f"{method.upper()} {template} [status]", method, path, 299, {"Content-Type": "application/json"}, {}, "status"))
        other = next((m for m in ["patch", "trace", "options", "put"] if m not in item), None)
        if operations and other:
            method, operation = operations[0]
            cases.append((f"{other.upper()} {template} [method]", other, prefix + fill_path(maker, template, operation, item), 200,
                          {"Content-Type": "application/json"}, {}, "method"))
    if cases:
        cases.append(("GET /no-such-path-zz [path]", "get", prefix + "/no-such-path-zz/9", 200, {"Content-Type": "application/json"}, {}, "path"))
    return cases


def write_scenarios(cases, folder):
    """One scenario per operation (by path and method), its exchanges named by case number."""
    folder.mkdir(parents=True, exist_ok=True)
    groups = collections.OrderedDict()
    for index, case in enumerate(cases):
        groups.setdefault((case[1], case[2]), []).append((index, case))
    for number, ((method, path), members) in enumerate(groups.items()):
        exchanges = []
        for index, (_, method_, path_, status, headers, body, _) in members:
            response = {"status": status, "headers": headers}
            if body is not None or headers.get("Content-Type"):
                response["json"] = body
            exchanges.append({"id": f"c{index}", "request": {"method": method_.upper(), "path": path_}, "response": response})
        scenario = {"name": f"operation {number}", "description": "answers made from the document, and planted changes",
                    "exchanges": exchanges, "steps": [], "relax": {"unusedExchanges": True},
                    "expect": {"requests": {"total": 0}}}
        (folder / f"op{number:05}.json").write_text(json.dumps(scenario))


def verify_outcomes(scenario, folder, document, report):
    result = subprocess.run([scenario, "verify", str(folder), "--openapi", str(document), "--json", str(report), "--allow-unchecked", "-q",
                             "--answers-only"], capture_output=True, text=True)
    if not report.exists():
        raise RuntimeError(f"verify wrote no report for {document.name}: {result.stdout[-500:]} {result.stderr[-500:]}")
    outcomes = {}
    for scenario_entry in json.loads(report.read_text())["scenarios"]:
        for exchange in scenario_entry["exchanges"]:
            outcomes[int(exchange["id"][1:])] = exchange
    return outcomes


class Response:
    def __init__(self, status, headers, body):
        self.status_code = status
        self.headers = Headers(list(headers.items()))
        self.content_type = headers.get("Content-Type", "")
        self.data = json.dumps(body).encode() if body is not None else b""


def reference_verdict(openapi, host, case):
    _, method, path, status, headers, body, _ = case
    try:
        openapi.validate_response(Request(host, method, path), Response(status, headers, body))
        return True, ""
    except Exception as refusal:
        return False, f"{type(refusal).__name__}: {refusal}"[:300]


def explained(maker, case, outcome, reference):
    """Why openapi-core is wrong about a difference, when it is known."""
    findings = outcome["findings"]
    if outcome["outcome"] == "findings" and findings and all(f["expected"] == "a string in the format uri" for f in findings) and not reference:
        # jsonschema checks `uri` only when the rfc3987 package is there, and openapi-core does not
        # install it: a value with a space (which RFC 3986 forbids) passes it.
        if all(re.search(r'[ <>"{}|\\^`]', f["actual"]) for f in findings):
            return "openapi-core does not check the 'uri' format (jsonschema needs rfc3987 for it); the value holds a character RFC 3986 forbids"
    text = json.dumps(maker.document)
    if outcome["outcome"] == "conforms" and "discriminator" in text and ("oneOf" in reference or "anyOf" in reference or "discriminator" in reference.lower()):
        return "openapi-core picks a oneOf/anyOf branch by the discriminator's property and refuses a value the other branches take"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--documents", required=True)
    parser.add_argument("--work", required=True)
    arguments = parser.parse_args()
    work = pathlib.Path(arguments.work)
    passed = failed = 0
    twins = {}
    for document_path in sorted(pathlib.Path(arguments.documents).iterdir()):
        if document_path.suffix not in (".yaml", ".yml", ".json"):
            continue
        started = time.monotonic()
        document = load(document_path)
        cases = cases_of(document)
        folder = work / document_path.name
        if not cases:
            # Nothing to answer (a webhooks-only document): it must still load.
            (folder / "empty").mkdir(parents=True, exist_ok=True)
            loads = subprocess.run([arguments.scenario, "verify", str(folder / "empty"), "--openapi", str(document_path), "--allow-empty", "-q"],
                                   capture_output=True, text=True)
            print(f"{document_path.name}: no operation answers JSON; verify {'loads it' if loads.returncode == 0 else 'DOES NOT load it: ' + loads.stderr.strip()}")
            passed, failed = (passed + 1, failed) if loads.returncode == 0 else (passed, failed + 1)
            continue
        write_scenarios(cases, folder / "scenarios")
        outcomes = verify_outcomes(arguments.scenario, folder / "scenarios", document_path, folder / "verify.json")
        twins[document_path.name] = {index: outcome["outcome"] for index, outcome in outcomes.items()}
        try:
            openapi = OpenAPI.from_dict(document)
        except Exception as refusal:
            print(f"{document_path.name}: openapi-core does not read it ({type(refusal).__name__}); verify's verdicts not compared")
            continue
        host, _ = server_of(document)
        maker = Maker(document)
        agree = differ = reference_wrong = unchecked = 0
        notes = []
        for index, case in enumerate(cases):
            outcome = outcomes.get(index)
            if outcome is None:
                differ += 1
                notes.append(f"  {case[0]}: verify gave no verdict")
                continue
            if outcome["outcome"] == "could-not-check":
                unchecked += 1
                continue
            valid, reason = reference_verdict(openapi, host, case)
            if valid == (outcome["outcome"] == "conforms"):
                agree += 1
                continue
            why = explained(maker, case, outcome, reason)
            if why:
                reference_wrong += 1
                notes.append(f"  {case[0]}: reference wrong ({why})")
                continue
            differ += 1
            findings = "; ".join(f"{f['kind']} {f.get('bodyPath', '')} expected {f['expected']}, got {f['actual']}" for f in outcome["findings"][:2])
            notes.append(f"  DIFFER {case[0]}: verify {outcome['outcome']} ({findings}); openapi-core {'accepts' if valid else reason}")
        passed += agree + reference_wrong
        failed += differ
        print(f"{document_path.name}: {len(cases)} exchanges: {agree} verdicts agree, {reference_wrong} where openapi-core is wrong, "
              f"{differ} differ, {unchecked} verify could not check ({time.monotonic() - started:.1f} s)")
        for note in notes[:25]:
            print(note)
    for yaml_name in list(twins):
        json_name = yaml_name.rsplit(".", 1)[0] + ".json"
        if yaml_name.endswith((".yaml", ".yml")) and json_name in twins:
            same = twins[yaml_name] == twins[json_name]
            print(f"{yaml_name} and {json_name}: verify's {len(twins[yaml_name])} verdicts {'are the same' if same else 'DIFFER'}")
            passed, failed = (passed + 1, failed) if same else (passed, failed + 1)
    print(json.dumps({"passed": passed, "failed": failed}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
