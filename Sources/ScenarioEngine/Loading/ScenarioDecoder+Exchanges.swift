import Foundation
import HTTPCore

/// Decoding `exchanges`: matchers, responses, faults, ordering and release conditions.
extension ScenarioDecoder {
    /// The exchanges the parser handed to ``decodeExchange(_:index:)`` as it read them.
    mutating func decodeExchanges(_ top: Members) -> [Exchange] {
        guard let member = top[K.exchanges] else { return [] }
        guard member.value.elements != nil else {
            report(
                "'\(K.exchanges)' must be an array of exchanges; got \(Self.describe(member.value.value))", member.value,
                top.path(K.exchanges))
            return []
        }
        return readExchanges
    }

    /// Decodes the exchange at `index` of `exchanges`, keeping it if it is whole.
    mutating func decodeExchange(_ node: JSONNode, index: Int) {
        let exchangePath = JSONPath.appending(Self.exchangesPath, index: index)
        let id = node[K.id]?.value.stringValue ?? "exchange-\(index + 1)"
        exchangeIds.append(id)
        if node[K.optional]?.value.boolValue != true { requiredExchanges += 1 }
        // Duplicate ids are reported where the second one is written (its id, or the exchange itself).
        let idLocation =
            node[K.id].map { location($0, JSONPath.appending(exchangePath, key: K.id)) } ?? location(node, exchangePath)
        if let first = firstExchangeUse[id] {
            report(
                "duplicate exchange id '\(id)'; ids must be unique", at: idLocation,
                hint: "first used at line \(first.line), column \(first.column)"
                    + (node[K.id] == nil ? " (exchanges without an id are named exchange-N)" : ""))
        } else {
            firstExchangeUse[id] = Position(idLocation)
        }
        if let exchange = decodeExchange(node, at: exchangePath, id: id), keepsElements {
            readExchanges.append(exchange)
        }
    }

    static let exchangesPath = JSONPath.appending(JSONPath.root, key: K.exchanges)

    private mutating func decodeExchange(_ node: JSONNode, at path: String, id: String) -> Exchange? {
        guard let fields = object(node, at: path, "exchange", allowed: ScenarioKeys.exchange) else { return nil }
        let issueCount = issues.count
        if let idNode = fields[K.id]?.value, let text = string(idNode, at: fields.path(K.id), "'\(K.id)'", nonEmpty: true),
            text == ScenarioKeys.unmatched
        {
            report("'\(ScenarioKeys.unmatched)' is reserved for requests no exchange served; pick another id", idNode, fields.path(K.id))
        }

        var matcher = RequestMatcher()
        if let request = fields[K.request] {
            matcher = decodeMatcher(request.value, at: fields.path(K.request)) ?? matcher
        } else {
            missing(K.request, in: fields, " (use {} to match any request)")
        }

        var reply: Reply?
        switch (fields[K.response], fields[K.fault]) {
        case (let response?, nil):
            reply = decodeResponse(response.value, at: fields.path(K.response)).map(Reply.response)
        case (nil, let fault?):
            reply = decodeFault(fault.value, at: fields.path(K.fault)).map(Reply.fault)
        case (_?, let fault?):
            report(
                "an exchange takes either '\(K.response)' or '\(K.fault)', not both", at: keyLocation(fault, fields.path(K.fault)))
        case (nil, nil) where fields.suggested.isDisjoint(with: [K.response, K.fault]):
            report("an exchange needs a '\(K.response)' or a '\(K.fault)'", node, path)
        case (nil, nil):
            break
        }

        var times: Int? = 1
        if let member = fields[K.times] {
            // A bad count is its own issue: read as unlimited, it raises no second one.
            times = decodeTimes(member.value, at: fields.path(K.times)) ?? nil
        }

        var after: [String] = []
        if let member = fields[K.after] {
            after = decodeAfter(member.value, at: fields.path(K.after), ownId: id)
        }

        var latency = Duration.zero
        if let member = fields[K.latency] {
            latency = duration(member.value, at: fields.path(K.latency), "'\(K.latency)'") ?? .zero
        }

        var release: ReleaseCondition?
        if let member = fields[K.release] {
            release = decodeRelease(member.value, at: fields.path(K.release))
            if case .whenPending(let count)? = release, let times, count > times,
                let pending = member.value.members?.first(where: { $0.key == K.whenPending })
            {
                // The count is of requests waiting on this exchange, which serves `times` of them.
                report(
                    "'\(K.whenPending)' is \(count), but this exchange serves \(times) request\(times == 1 ? "" : "s") ('\(K.times)'), so its answers are never released",
                    pending.value, JSONPath.appending(fields.path(K.release), key: K.whenPending),
                    hint: "make '\(K.times)' at least \(count), or lower '\(K.whenPending)'")
            }
        }

        let optional = bool(fields, K.optional) ?? false
        if let member = fields[K.verify] { decodeVerify(member.value, at: fields.path(K.verify)) }
        guard issues.count == issueCount, let reply else { return nil }
        return Exchange(
            id: id, request: matcher, reply: reply, times: times, after: after, latency: latency, release: release,
            optional: optional, location: location(node, path))
    }

    /// `"verify": {"skip": "why"}`: `scenario verify` leaves the exchange out, and says why.
    private mutating func decodeVerify(_ node: JSONNode, at path: String) {
        if node.value.boolValue != nil {
            report(
                "'\(K.verify)' takes {\"\(K.skip)\": \"why\"}: an exchange left out of verification needs its reason", node, path,
                hint: "such as {\"\(K.skip)\": \"a proxy's HTML page, not the backend's answer\"}")
            return
        }
        guard let fields = object(node, at: path, "'\(K.verify)'", allowed: ScenarioKeys.verify) else { return }
        if let skip = fields[K.skip] {
            if let reason = string(skip.value, at: fields.path(K.skip), "'\(K.skip)'", nonEmpty: true),
                reason.allSatisfy({ $0.isWhitespace })
            {
                report("'\(K.skip)' must say why the exchange is left out", skip.value, fields.path(K.skip))
            }
        } else {
            missing(K.skip, in: fields, " (the reason the exchange is left out of verification)")
        }
    }

    private mutating func decodeTimes(_ node: JSONNode, at path: String) -> Int?? {
        if let text = node.value.stringValue {
            if text == ScenarioKeys.unlimited { return .some(nil) }
            report(
                "'\(K.times)' must be an integer >= 1 or \"\(ScenarioKeys.unlimited)\"; got \(Self.describe(node.value))", node, path,
                hint: Self.didYouMean(text, [ScenarioKeys.unlimited]))
            return nil
        }
        guard let count = node.value.intValue, count >= 1 else {
            report("'\(K.times)' must be an integer >= 1 or \"\(ScenarioKeys.unlimited)\"; got \(Self.describe(node.value))", node, path)
            return nil
        }
        return .some(count)
    }

    private mutating func decodeAfter(_ node: JSONNode, at path: String, ownId: String) -> [String] {
        var named: [(JSONNode, String)] = []
        if node.value.stringValue != nil {
            named = [(node, path)]
        } else if let elements = node.elements {
            named = elements.enumerated().map { ($1, JSONPath.appending(path, index: $0)) }
        } else {
            report("'\(K.after)' must be an exchange id or an array of them; got \(Self.describe(node.value))", node, path)
            return []
        }
        var ids: [String] = []
        for (element, elementPath) in named {
            guard let id = string(element, at: elementPath, "'\(K.after)'") else { continue }
            if id == ownId {
                report("an exchange cannot come after itself", element, elementPath)
            } else if checkAfter(id, at: location(element, elementPath)) {
                ids.append(id)
            }
        }
        return ids
    }

    /// Whether `id`, named by an `after`, is an exchange's; reports it otherwise (or once the file is read).
    @discardableResult
    mutating func checkAfter(_ id: String, at location: ScenarioLocation) -> Bool {
        guard firstExchangeUse[id] == nil else { return true }
        if reading {
            laterReferences.append(.after(id: id, location: location))
            return true
        }
        report("'\(K.after)' names unknown exchange '\(id)'", at: location, hint: Self.didYouMean(id, exchangeIds))
        return false
    }

    private mutating func decodeRelease(_ node: JSONNode, at path: String) -> ReleaseCondition? {
        guard let fields = object(node, at: path, "'\(K.release)'", allowed: ScenarioKeys.release) else { return nil }
        switch (fields[K.whenPending], fields[K.atStep]) {
        case (let pending?, nil):
            return integer(pending.value, at: fields.path(K.whenPending), "'\(K.whenPending)'", minimum: 1).map(
                ReleaseCondition.whenPending)
        case (nil, let step?):
            let stepPath = fields.path(K.atStep)
            guard let name = string(step.value, at: stepPath, "'\(K.atStep)'", nonEmpty: true),
                checkStepReference(name, at: location(step.value, stepPath))
            else { return nil }
            return .atStep(name)
        case (_?, let step?):
            report(
                "'\(K.release)' takes either '\(K.whenPending)' or '\(K.atStep)', not both", at: keyLocation(step, fields.path(K.atStep)))
        case (nil, nil) where fields.suggested.isEmpty:
            report("'\(K.release)' needs '\(K.whenPending)' (a count) or '\(K.atStep)' (a step name)", node, path)
        case (nil, nil):
            break
        }
        return nil
    }

    private mutating func decodeFault(_ node: JSONNode, at path: String) -> TransportError.Code? {
        guard let name = string(node, at: path, "'\(K.fault)'") else { return nil }
        guard ScenarioKeys.faults.contains(name), let code = TransportError.Code(rawValue: name) else {
            report(
                "unknown fault '\(name)'; faults are \(ScenarioKeys.faults.joined(separator: ", "))", node, path,
                hint: Self.didYouMean(name, ScenarioKeys.faults))
            return nil
        }
        return code
    }

    // MARK: request

    mutating func decodeMatcher(_ node: JSONNode, at path: String) -> RequestMatcher? {
        guard let fields = object(node, at: path, "'\(K.request)'", allowed: ScenarioKeys.request) else { return nil }
        var matcher = RequestMatcher()
        if let member = fields[K.method] {
            matcher.method = method(member.value, at: fields.path(K.method))
        }
        switch (fields[K.path], fields[K.pathPattern]) {
        case (let exact?, nil):
            if let text = requestPath(exact.value, at: fields.path(K.path), "'\(K.path)'") {
                if text.contains("{") || text.hasSuffix("*") {
                    report(
                        "'\(K.path)' is matched exactly; use '\(K.pathPattern)' for {name} segments and a final *", exact.value,
                        fields.path(K.path))
                } else {
                    matcher.path = .exact(text)
                }
            }
        case (nil, let pattern?):
            if let text = requestPath(pattern.value, at: fields.path(K.pathPattern), "'\(K.pathPattern)'"),
                checkPattern(text, pattern.value, at: fields.path(K.pathPattern))
            {
                matcher.path = .pattern(text)
            }
        case (_?, let pattern?):
            report(
                "'\(K.request)' takes either '\(K.path)' or '\(K.pathPattern)', not both",
                at: keyLocation(pattern, fields.path(K.pathPattern)))
        case (nil, nil):
            break
        }
        if let member = fields[K.query] {
            matcher.query = stringPairs(member.value, at: fields.path(K.query), "'\(K.query)'").map { (name: $0.0, value: $0.1) }
        }
        if let member = fields[K.headers] {
            matcher.headers = headers(member.value, at: fields.path(K.headers))
        }
        switch (fields[K.json], fields[K.text]) {
        case (let json?, nil):
            matcher.body = .jsonSubset(json.value.value)
        case (nil, let text?):
            matcher.body = string(text.value, at: fields.path(K.text), "'\(K.text)'").map(BodyRule.text)
        case (_?, let text?):
            report("'\(K.request)' takes either '\(K.json)' or '\(K.text)', not both", at: keyLocation(text, fields.path(K.text)))
        case (nil, nil):
            break
        }
        return matcher
    }

    func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == "-" || $0 == "_") }
    }

    mutating func method(_ node: JSONNode, at path: String) -> HTTPMethod? {
        guard let text = node.value.stringValue, isToken(text) else {
            report("'\(K.method)' must be an HTTP method such as \"GET\" or \"POST\"; got \(Self.describe(node.value))", node, path)
            return nil
        }
        return HTTPMethod(rawValue: text)
    }

    private mutating func requestPath(_ node: JSONNode, at path: String, _ what: String) -> String? {
        guard let text = string(node, at: path, what) else { return nil }
        guard text.hasPrefix("/") else {
            report("\(what) must start with '/'; got \(Self.describe(node.value))", node, path)
            return nil
        }
        if text.contains("?") {
            report("\(what) is the path without the query; put parameters under '\(K.query)'", node, path)
            return nil
        }
        return text
    }

    /// `{name}` must be a whole segment and `*` only the whole last segment.
    private mutating func checkPattern(_ text: String, _ node: JSONNode, at path: String) -> Bool {
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            if segment == "*" {
                if index != segments.count - 1 {
                    report("'*' in '\(K.pathPattern)' may only be the last segment", node, path)
                    return false
                }
            } else if segment.hasPrefix("{") || segment.hasSuffix("}") {
                let name = segment.dropFirst().dropLast()
                guard segment.hasPrefix("{"), segment.hasSuffix("}"), !name.isEmpty,
                    name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
                else {
                    report("'\(K.pathPattern)' segment '\(segment)' must be a whole {name} such as {id}", node, path)
                    return false
                }
            } else if segment.contains("{") || segment.contains("}") || segment.contains("*") {
                report("'\(K.pathPattern)' segment '\(segment)' must be a whole {name} or a final '*', not part of one", node, path)
                return false
            }
        }
        return true
    }

    mutating func headers(_ node: JSONNode, at path: String) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in stringPairs(node, at: path, "'\(K.headers)'") {
            fields.append(name: name, value: value)
        }
        return fields
    }

    // MARK: response

    private mutating func decodeResponse(_ node: JSONNode, at path: String) -> HTTPResponse? {
        guard let fields = object(node, at: path, "'\(K.response)'", allowed: ScenarioKeys.response) else { return nil }
        let issueCount = issues.count
        var status: HTTPStatus?
        if let member = fields[K.status] {
            status = integer(member.value, at: fields.path(K.status), "'\(K.status)'", minimum: 100, maximum: 599).map(
                HTTPStatus.init(code:))
        } else {
            missing(K.status, in: fields, " (an integer from 100 to 599)")
        }
        var headers = HTTPFields()
        if let member = fields[K.headers] {
            headers = self.headers(member.value, at: fields.path(K.headers))
        }
        let bodies = ScenarioKeys.responseBodies.compactMap { fields[$0] }.sorted {
            ($0.keyLine, $0.keyColumn) < ($1.keyLine, $1.keyColumn)
        }
        var body = Data()
        if bodies.count > 1 {
            for extra in bodies.dropFirst() {
                report(
                    "a response takes at most one body: '\(bodies[0].key)' is already given, so remove '\(extra.key)'",
                    at: keyLocation(extra, fields.path(extra.key)))
            }
        } else if let form = bodies.first {
            let bodyPath = fields.path(form.key)
            switch form.key {
            case K.json:
                body = form.value.value.data
                if !headers.contains(HTTPFields.Name.contentType) {
                    headers.append(name: HTTPFields.Name.contentType, value: "application/json")
                }
            case K.text:
                body = string(form.value, at: bodyPath, "'\(K.text)'").map { Data($0.utf8) } ?? Data()
            case K.file:
                body = fileBody(form.value, at: bodyPath) ?? Data()
            default:
                if let text = string(form.value, at: bodyPath, "'base64'") {
                    if let data = Data(base64Encoded: text) {
                        body = data
                    } else {
                        report("'base64' is not valid base64", form.value, bodyPath)
                    }
                }
            }
        }
        guard issues.count == issueCount, let status else { return nil }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    private mutating func fileBody(_ node: JSONNode, at path: String) -> Data? {
        guard let name = string(node, at: path, "'\(K.file)'", nonEmpty: true) else { return nil }
        let resolved = name.hasPrefix("/") ? name : URL(fileURLWithPath: directory).appendingPathComponent(name).path
        do {
            return Data(try FileBytes.read(resolved))
        } catch .failed("no such file") {
            report(
                "'\(K.file)' names a file that does not exist: \(resolved)", node, path,
                hint: "paths are relative to the scenario file's folder")
        } catch {
            report("cannot read the '\(K.file)' \(resolved): \(error)", node, path, hint: "name a regular file")
        }
        return nil
    }
}

private typealias K = ScenarioKey
