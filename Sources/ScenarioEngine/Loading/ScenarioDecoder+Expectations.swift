/// Decoding `expect` and `check`: state, alerts, timeline and the request log.
extension ScenarioDecoder {
    mutating func decodeExpectations(_ node: JSONNode, at path: String, _ what: String) -> Expectations? {
        guard let fields = object(node, at: path, what, allowed: ScenarioKeys.expectations) else { return nil }
        let issueCount = issues.count
        // An expectation that cannot fail is a mistake, not a pass.
        if node.members?.isEmpty == true {
            report(
                "\(what) is empty and checks nothing; name at least one of state, alerts, timeline, requests, or leave it out", node, path)
        }
        var expectations = Expectations(location: location(node, path))
        if let member = fields[K.state] {
            if member.value.members == nil {
                report(
                    "'\(K.state)' must be an object (a subset of the driver's snapshot); got \(Self.describe(member.value.value))",
                    member.value, fields.path(K.state))
            } else if member.value.members?.isEmpty == true {
                report(
                    "'\(K.state)': {} would only match an empty snapshot; name the fields to check, such as {\"screen\": \"login\"}",
                    member.value, fields.path(K.state))
            } else {
                expectations.state = member.value.value
            }
        }
        if let member = fields[K.alerts] {
            expectations.alerts = array(member.value, at: fields.path(K.alerts), "'\(K.alerts)'")
        }
        if let member = fields[K.timeline] {
            expectations.timeline = array(member.value, at: fields.path(K.timeline), "'\(K.timeline)'")
        }
        if let member = fields[K.requests] {
            expectations.requests = decodeRequestExpectations(member.value, at: fields.path(K.requests))
        }
        guard issues.count == issueCount else { return nil }
        // Where each key is written serves only a run's report: a check that keeps nothing skips it.
        guard keepsElements else { return expectations }
        for key in [K.state, K.alerts, K.timeline, K.requests] {
            guard let member = fields[key] else { continue }
            recordKeyLocations(member, check: key, path: fields.path(key), into: &expectations.keyLocations)
        }
        return expectations
    }

    /// Where `member` and everything below it is written, keyed by check path (`state.auth`,
    /// `alerts[0].title`), so a failed check points at its key rather than at the block.
    private func recordKeyLocations(
        _ member: JSONNode.Member, check: String, path: String, into locations: inout [String: ScenarioLocation]
    ) {
        locations[check] = keyLocation(member, path)
        func below(_ node: JSONNode, check: String, path: String) {
            for member in node.members ?? [] {
                let memberPath = JSONPath.appending(path, key: member.key)
                locations[check + "." + member.key] = keyLocation(member, memberPath)
                below(member.value, check: check + "." + member.key, path: memberPath)
            }
            for (index, element) in (node.elements ?? []).enumerated() {
                let elementPath = JSONPath.appending(path, index: index)
                locations[check + "[\(index)]"] = location(element, elementPath)
                below(element, check: check + "[\(index)]", path: elementPath)
            }
        }
        below(member.value, check: check, path: path)
    }

    private mutating func array(_ node: JSONNode, at path: String, _ what: String) -> [JSONValue]? {
        guard let elements = node.value.arrayValue else {
            report("\(what) must be an array (the exact ordered list); got \(Self.describe(node.value))", node, path)
            return nil
        }
        return elements
    }

    private mutating func decodeRequestExpectations(_ node: JSONNode, at path: String) -> RequestExpectations? {
        guard let fields = object(node, at: path, "'\(K.requests)'", allowed: ScenarioKeys.requestExpectations) else { return nil }
        if node.members?.isEmpty == true {
            report(
                "'\(K.requests)' is empty and checks nothing; name \(K.total), \(K.counts) or \(K.log) (\"\(K.total)\": 0 says no request was sent)",
                node, path)
        }
        var expectations = RequestExpectations()
        if let member = fields[K.total] {
            expectations.total = integer(member.value, at: fields.path(K.total), "'\(K.total)'", minimum: 0)
        }
        if let member = fields[K.counts] {
            let countsPath = fields.path(K.counts)
            if let entries = member.value.members {
                if entries.isEmpty {
                    report(
                        "'\(K.counts)' is empty and checks nothing; name an exchange id and how many requests it served", member.value,
                        countsPath)
                }
                for entry in entries {
                    let entryPath = JSONPath.appending(countsPath, key: entry.key)
                    let known = checkExchangeReference(entry.key, at: keyLocation(entry, entryPath), "'\(K.counts)'")
                    if let count = integer(entry.value, at: entryPath, "the count for '\(entry.key)'", minimum: 0), known {
                        expectations.counts.append((exchange: entry.key, count: count))
                    }
                }
            } else {
                report(
                    "'\(K.counts)' must be an object of exchange id -> number of requests; got \(Self.describe(member.value.value))",
                    member.value, countsPath)
            }
        }
        if let member = fields[K.log] {
            let logPath = fields.path(K.log)
            if let elements = member.value.elements {
                if elements.isEmpty {
                    report("an empty '\(K.log)' checks nothing; to say no request was sent, write \"\(K.total)\": 0", member.value, logPath)
                }
                expectations.log = elements.enumerated().compactMap { index, element in
                    decodeLogEntry(element, at: JSONPath.appending(logPath, index: index))
                }
            } else {
                report("'\(K.log)' must be an array of request patterns; got \(Self.describe(member.value.value))", member.value, logPath)
            }
        }
        return expectations
    }

    private mutating func decodeLogEntry(_ node: JSONNode, at path: String) -> RequestLogPattern? {
        guard let fields = object(node, at: path, "a '\(K.log)' entry", allowed: ScenarioKeys.logEntry) else { return nil }
        var pattern = RequestLogPattern(location: location(node, path))
        if let member = fields[K.count] {
            pattern.count = integer(member.value, at: fields.path(K.count), "'\(K.count)'", minimum: 1) ?? 1
        }
        if let member = fields[K.exchange] {
            let exchangePath = fields.path(K.exchange)
            if let id = string(member.value, at: exchangePath, "'\(K.exchange)'"),
                checkExchangeReference(id, at: location(member.value, exchangePath), "'\(K.exchange)'")
            {
                pattern.exchange = id
            }
        }
        if let member = fields[K.method] {
            pattern.method = method(member.value, at: fields.path(K.method))?.rawValue
        }
        pattern.path = string(fields, K.path)
        if let member = fields[K.headers] {
            let headersPath = fields.path(K.headers)
            if let entries = member.value.members {
                for entry in entries {
                    switch entry.value.value {
                    case .string(let value): pattern.headers.append((name: entry.key, value: value))
                    case .null: pattern.headers.append((name: entry.key, value: nil))
                    default:
                        report(
                            "header values in a '\(K.log)' entry must be strings, or null for absent; got \(Self.describe(entry.value.value)) for '\(entry.key)'",
                            entry.value, JSONPath.appending(headersPath, key: entry.key))
                    }
                }
            } else {
                report(
                    "'\(K.headers)' must be an object of strings (or null); got \(Self.describe(member.value.value))", member.value,
                    headersPath)
            }
        }
        pattern.json = fields[K.json]?.value.value
        return pattern
    }

    /// Whether `id` names an exchange of this file or `"unmatched"`; reports it otherwise (or,
    /// while the file is still being read and it names none so far, once it is read).
    mutating func checkExchangeReference(_ id: String, at location: ScenarioLocation, _ what: String) -> Bool {
        guard id != ScenarioKeys.unmatched, firstExchangeUse[id] == nil else { return true }
        if reading {
            laterReferences.append(.exchange(id: id, location: location, what: what))
            return true
        }
        report(
            "\(what) names unknown exchange '\(id)'", at: location,
            hint: Self.didYouMean(id, exchangeIds + [ScenarioKeys.unmatched])
                ?? "exchange ids here: \((exchangeIds + [ScenarioKeys.unmatched]).joined(separator: ", "))")
        return false
    }
}

private typealias K = ScenarioKey
