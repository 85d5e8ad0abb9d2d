import Foundation

/// The keys of invariant files and of a scenario's `invariants`, in one place (the schema tests
/// compare them with `invariants.schema.json`).
package enum InvariantKeys {
    /// An invariant file's root.
    package static let file = ["$schema", "invariants"]
    /// A scenario's `invariants`.
    package static let changes = ["add", "off"]
    /// Keys every invariant takes.
    package static let common = ["id", "description", "check"]
    /// The checks, with the keys each one takes besides the common ones.
    package static let checks: [(name: String, keys: [String])] = [
        ("neverSentTwice", ["requests", "value"]),
        ("notAfterReplaced", ["value", "replacedBy", "answer"]),
        ("refreshesOnlyForCurrent", ["value", "refresh", "answer", "after"]),
        ("noneAfter", ["after", "until", "requests", "carrying"]),
        ("maxInFlight", ["requests", "max"]),
        ("maxRepeats", ["requests", "max", "after"]),
        ("repeatsWithinSession", ["requests", "after", "sessions"]),
        ("respectsRetryAfter", ["requests", "statuses"]),
        ("reportsRetryAfter", ["statuses", "field"]),
        ("alertAtMost", ["alert", "max", "sessions", "cause", "required"]),
        ("timeline", ["initial", "transitions"]),
    ]
    /// Where a value is read: exactly one of these, and `scheme` with `header`.
    package static let value = ["header", "json", "form", "query", "scheme"]
    /// An event: exactly one of these.
    package static let event = ["sent", "answered"]
    /// How a run divides into sessions.
    package static let sessions = ["startWith", "credential", "issued"]
    /// An answer matcher.
    package static let answer = ["request", "notRequest", "status", "json", "notJSON"]
}

extension ScenarioDecoder {
    /// An invariant file's invariants.
    mutating func decodeInvariantFile(_ root: JSONNode) -> [Invariant] {
        guard let top = object(root, at: JSONPath.root, "the invariant file", allowed: InvariantKeys.file) else { return [] }
        _ = string(top, "$schema")
        guard let member = top["invariants"] else {
            missing("invariants", in: top)
            return []
        }
        return decodeInvariantList(member.value, at: top.path("invariants"), known: [])
    }

    /// A scenario's `invariants`: its own, and the inherited ones it switches off (of `known` ids).
    mutating func decodeInvariantChanges(_ node: JSONNode, at path: String, known: [String]) -> InvariantChanges {
        guard let fields = object(node, at: path, "'invariants'", allowed: InvariantKeys.changes) else { return InvariantChanges() }
        var changes = InvariantChanges()
        if let add = fields["add"] {
            changes.add = decodeInvariantList(add.value, at: fields.path("add"), known: known)
        }
        if let off = fields["off"] {
            let offPath = fields.path("off")
            guard let members = off.value.members else {
                report(
                    "'off' must be an object from invariant id to the reason it is off; got \(Self.describe(off.value.value))", off.value,
                    offPath)
                return changes
            }
            for member in members {
                let memberPath = JSONPath.appending(offPath, key: member.key)
                guard let reason = member.value.value.stringValue, !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                    report("switching '\(member.key)' off needs a reason, as a non-empty string", member.value, memberPath)
                    continue
                }
                if !known.contains(member.key) {
                    report(
                        known.isEmpty
                            ? "no invariant file governs this scenario, so there is no invariant '\(member.key)' to switch off"
                            : "no invariant governing this scenario is called '\(member.key)'",
                        at: keyLocation(member, memberPath),
                        hint: Self.didYouMean(member.key, known) ?? (known.isEmpty ? nil : "known: \(known.joined(separator: ", "))"))
                    continue
                }
                changes.off[member.key] = reason
            }
        }
        return changes
    }

    private mutating func decodeInvariantList(_ node: JSONNode, at path: String, known: [String]) -> [Invariant] {
        guard let elements = node.elements else {
            report("'invariants' must be an array of invariants; got \(Self.describe(node.value))", node, path)
            return []
        }
        var out: [Invariant] = []
        var ids = Set(known)
        for (index, element) in elements.enumerated() {
            let elementPath = JSONPath.appending(path, index: index)
            guard let invariant = decodeInvariant(element, at: elementPath) else { continue }
            if !ids.insert(invariant.id).inserted {
                report("the invariant id '\(invariant.id)' is used twice; ids must be unique", element, elementPath)
                continue
            }
            out.append(invariant)
        }
        return out
    }

    private mutating func decodeInvariant(_ node: JSONNode, at path: String) -> Invariant? {
        let names = InvariantKeys.checks.map(\.name)
        let checkName = node["check"]?.value.stringValue
        let extra = InvariantKeys.checks.first { $0.name == checkName }?.keys ?? Array(Set(InvariantKeys.checks.flatMap(\.keys))).sorted()
        guard let fields = object(node, at: path, "invariant '\(checkName ?? "?")'", allowed: InvariantKeys.common + extra) else {
            return nil
        }
        let id = string(fields, "id", required: true, nonEmpty: true)
        let description = string(fields, "description", required: true) ?? ""
        guard let checkMember = fields["check"] else {
            missing("check", in: fields, " (one of \(names.joined(separator: ", ")))")
            return nil
        }
        guard let check = checkName, names.contains(check) else {
            let what = checkName == nil ? "'check' must be a check's name; got" : "unknown check"
            report(
                "\(what) \(Self.describe(checkMember.value.value)); checks are \(names.joined(separator: ", "))", checkMember.value,
                fields.path("check"), hint: checkName.flatMap { Self.didYouMean($0, names) })
            return nil
        }
        let before = issues.count
        let requests = fields["requests"].flatMap { decodeMatcher($0.value, at: fields.path("requests")) }
        var rule: Invariant.Rule?
        switch check {
        case "neverSentTwice":
            if let value = requiredValue(fields, "value") { rule = .neverSentTwice(requests: requests, value: value) }
        case "notAfterReplaced":
            let value = requiredValue(fields, "value")
            let by = fields["replacedBy"].flatMap { decodeMatcher($0.value, at: fields.path("replacedBy")) }
            let answer = string(fields, "answer", required: true, nonEmpty: true)
            if let value, let answer { rule = .notAfterReplaced(value: value, replacedBy: by, answerPath: answer) }
        case "refreshesOnlyForCurrent":
            let value = requiredValue(fields, "value")
            if fields["refresh"] == nil { missing("refresh", in: fields, " (the refresh requests)") }
            let refresh = fields["refresh"].flatMap { decodeMatcher($0.value, at: fields.path("refresh")) }
            let answer = string(fields, "answer", required: true, nonEmpty: true)
            let after = fields["after"].flatMap { decodeStatuses($0.value, at: fields.path("after")) } ?? StatusSet(statuses: [401])
            if let value, let refresh, let answer {
                rule = .refreshesOnlyForCurrent(value: value, refresh: refresh, answerPath: answer, after: after)
            }
        case "noneAfter":
            let after = fields["after"].map { decodeEvents($0.value, at: fields.path("after")) }
            if fields["after"] == nil { missing("after", in: fields) }
            let until = fields["until"].map { decodeEvents($0.value, at: fields.path("until")) } ?? []
            let carrying = fields["carrying"].flatMap { decodeValue($0.value, at: fields.path("carrying")) }
            if let after { rule = .noneAfter(after: after, until: until, requests: requests, carrying: carrying) }
        case "maxInFlight":
            if let max = requiredCount(fields, "max") { rule = .maxInFlight(requests: requests, max: max) }
        case "maxRepeats":
            let after = repeatedAfter(fields)
            if let max = requiredCount(fields, "max", minimum: 0) { rule = .maxRepeats(requests: requests, max: max, after: after) }
        case "repeatsWithinSession":
            let after = repeatedAfter(fields)
            if fields["sessions"] == nil { missing("sessions", in: fields, " (how the run divides into sessions)") }
            if let sessions = fields["sessions"].flatMap({ decodeSessions($0.value, at: fields.path("sessions")) }) {
                rule = .repeatsWithinSession(requests: requests, after: after, sessions: sessions)
            }
        case "respectsRetryAfter":
            let statuses = fields["statuses"].flatMap { decodeStatuses($0.value, at: fields.path("statuses")) }
            rule = .respectsRetryAfter(requests: requests, statuses: statuses ?? StatusSet(statuses: [429, 503]))
        case "reportsRetryAfter":
            let statuses = fields["statuses"].flatMap { decodeStatuses($0.value, at: fields.path("statuses")) }
            let field = string(fields, "field", nonEmpty: true) ?? "retryAfter"
            rule = .reportsRetryAfter(statuses: statuses ?? StatusSet(statuses: [429, 503]), field: field)
        case "alertAtMost":
            let alert = fields["alert"].map(\.value.value)
            if let alert, alert.objectValue == nil, let node = fields["alert"]?.value {
                report("'alert' must be an object (the alert's fields to match); got \(Self.describe(alert))", node, fields.path("alert"))
            }
            if alert == nil { missing("alert", in: fields) }
            let max = fields["max"] == nil ? 1 : requiredCount(fields, "max")
            // Without 'sessions' the whole run is one session.
            let sessions =
                fields["sessions"] == nil
                ? SessionSpec() : fields["sessions"].flatMap { decodeSessions($0.value, at: fields.path("sessions")) }
            let cause = fields["cause"].flatMap { decodeAnswer($0.value, at: fields.path("cause")) }
            let required = bool(fields, "required") ?? false
            if required, cause == nil, let member = fields["required"] {
                report("'required' needs a 'cause': the answers that make the alert due", at: keyLocation(member, fields.path("required")))
            }
            if let alert, let max, let sessions {
                rule = .alertAtMost(alert: alert, max: max, sessions: sessions, cause: cause, required: required)
            }
        case "timeline":
            let initial = stringArray(fields, "initial")
            if initial?.isEmpty == true, let member = fields["initial"] {
                report("'initial' must name at least one state the timeline may start at", member.value, fields.path("initial"))
            }
            var transitions: [String: [String]] = [:]
            if let member = fields["transitions"] {
                let at = fields.path("transitions")
                if let members = member.value.members {
                    for state in members {
                        let statePath = JSONPath.appending(at, key: state.key)
                        guard let targets = state.value.value.arrayValue, targets.allSatisfy({ $0.stringValue != nil }) else {
                            report("the states '\(state.key)' may move to must be an array of strings", state.value, statePath)
                            continue
                        }
                        transitions[state.key] = targets.compactMap(\.stringValue)
                    }
                } else {
                    report("'transitions' must be an object from a state to the states it may move to", member.value, at)
                }
            } else {
                missing("transitions", in: fields)
            }
            rule = .timeline(initial: initial, transitions: transitions)
        default:
            break
        }
        guard issues.count == before, let id, let rule else { return nil }
        return Invariant(id: id, description: description, rule: rule, location: location(node, path))
    }

    private mutating func requiredValue(_ fields: Members, _ key: String) -> ValueReference? {
        guard let member = fields[key] else {
            missing(key, in: fields, " (where the value is: {\"header\": ...}, {\"json\": ...}, {\"form\": ...} or {\"query\": ...})")
            return nil
        }
        return decodeValue(member.value, at: fields.path(key))
    }

    private mutating func requiredCount(_ fields: Members, _ key: String, minimum: Int = 1) -> Int? {
        guard let member = fields[key] else {
            missing(key, in: fields)
            return nil
        }
        return integer(member.value, at: fields.path(key), "'\(key)'", minimum: minimum)
    }

    private mutating func decodeValue(_ node: JSONNode, at path: String) -> ValueReference? {
        guard let fields = object(node, at: path, "a value's place", allowed: InvariantKeys.value) else { return nil }
        let places = ["header", "json", "form", "query"].filter(fields.has)
        guard places.count == 1, let place = places.first else {
            report("a value's place takes exactly one of 'header', 'json', 'form' or 'query'; got \(places.count)", node, path)
            return nil
        }
        guard let name = string(fields, place, nonEmpty: true) else { return nil }
        if place == "json", name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty),
            let member = fields["json"]
        {
            report(
                "'json' must be a dotted path such as \"refresh_token\" or \"data.token\"; got \(Self.describe(member.value.value))",
                member.value, fields.path("json"))
            return nil
        }
        let scheme = string(fields, "scheme", nonEmpty: true)
        if scheme != nil, place != "header", let member = fields["scheme"] {
            report("'scheme' goes with 'header' only", at: keyLocation(member, fields.path("scheme")))
        }
        switch place {
        case "header": return .header(name, scheme: scheme)
        case "json": return .json(name)
        case "form": return .form(name)
        default: return .query(name)
        }
    }

    /// One value or an array of them, each decoded at its own path; an empty array is reported
    /// with `ifEmpty` when given.
    private mutating func oneOrMany<T>(
        _ node: JSONNode, at path: String, ifEmpty: String? = nil, _ decode: (inout Self, JSONNode, String) -> T?
    ) -> [T] {
        guard let elements = node.elements else { return decode(&self, node, path).map { [$0] } ?? [] }
        if elements.isEmpty, let ifEmpty { report(ifEmpty, node, path) }
        return elements.enumerated().compactMap { decode(&self, $1, JSONPath.appending(path, index: $0)) }
    }

    private mutating func decodeEvents(_ node: JSONNode, at path: String) -> [EventPattern] {
        oneOrMany(node, at: path) { $0.decodeEvent($1, at: $2) }
    }

    private mutating func decodeMatchers(_ node: JSONNode, at path: String, ifEmpty: String? = nil) -> [RequestMatcher] {
        oneOrMany(node, at: path, ifEmpty: ifEmpty) { $0.decodeMatcher($1, at: $2) }
    }

    private mutating func decodeSessions(_ node: JSONNode, at path: String) -> SessionSpec? {
        guard let fields = object(node, at: path, "'sessions'", allowed: InvariantKeys.sessions) else { return nil }
        var spec = SessionSpec()
        if let member = fields["startWith"] {
            spec.startWith = decodeMatchers(
                member.value, at: fields.path("startWith"),
                ifEmpty: "'startWith' needs at least one request: those whose 2xx answers begin a session")
        } else {
            missing("startWith", in: fields, " (the requests whose 2xx answers begin a session, such as a sign-in)")
        }
        if let member = fields["credential"] {
            spec.credentials = oneOrMany(member.value, at: fields.path("credential"), ifEmpty: "'credential' needs at least one place") {
                $0.decodeValue($1, at: $2)
            }
        }
        if let member = fields["issued"] {
            spec.issued = oneOrMany(member.value, at: fields.path("issued"), ifEmpty: "'issued' needs at least one path") {
                $0.string($1, at: $2, "'issued'", nonEmpty: true)
            }
            if fields["credential"] == nil {
                report(
                    "'issued' needs 'credential': where requests carry what the answers hand out",
                    at: keyLocation(member, fields.path("issued")))
            }
        }
        return spec
    }

    private mutating func decodeEvent(_ node: JSONNode, at path: String) -> EventPattern? {
        guard let fields = object(node, at: path, "an event", allowed: InvariantKeys.event) else { return nil }
        switch (fields["sent"], fields["answered"]) {
        case (let sent?, nil): return decodeMatcher(sent.value, at: fields.path("sent")).map(EventPattern.sent)
        case (nil, let answered?): return decodeAnswer(answered.value, at: fields.path("answered")).map(EventPattern.answered)
        default:
            report("an event takes exactly one of 'sent' (a request) or 'answered' (an answer)", node, path)
            return nil
        }
    }

    private mutating func decodeAnswer(_ node: JSONNode, at path: String) -> AnswerMatcher? {
        guard let fields = object(node, at: path, "an answer", allowed: InvariantKeys.answer) else { return nil }
        var matcher = AnswerMatcher()
        matcher.request = fields["request"].flatMap { decodeMatcher($0.value, at: fields.path("request")) }
        matcher.notRequest = fields["notRequest"].map { decodeMatchers($0.value, at: fields.path("notRequest")) } ?? []
        matcher.status = fields["status"].flatMap { decodeStatuses($0.value, at: fields.path("status")) }
        matcher.json = fields["json"]?.value.value
        if let member = fields["notJSON"] {
            if let elements = member.value.value.arrayValue {
                matcher.notJSON = elements
            } else {
                report("'notJSON' must be an array of JSON subsets", member.value, fields.path("notJSON"))
            }
        }
        return matcher
    }

    /// The answers after which a request counts as repeated: `after`, or any 4xx or 5xx.
    private mutating func repeatedAfter(_ fields: Members) -> StatusSet {
        fields["after"].flatMap { decodeStatuses($0.value, at: fields.path("after")) } ?? StatusSet(classes: [4, 5])
    }

    /// `429`, `"4xx"`, or an array of them.
    private mutating func decodeStatuses(_ node: JSONNode, at path: String) -> StatusSet? {
        var set = StatusSet()
        let items = node.elements.map(Array.init) ?? [node]
        for item in items {
            if let code = item.value.intValue, (100...599).contains(code) {
                set.statuses.insert(code)
            } else if let text = item.value.stringValue, text.count == 3, text.hasSuffix("xx"), let digit = Int(text.prefix(1)),
                (1...5).contains(digit)
            {
                set.classes.insert(digit)
            } else {
                report(
                    "a status must be a number from 100 to 599 or a class such as \"4xx\"; got \(Self.describe(item.value))", item, path)
                return nil
            }
        }
        return set
    }
}
