import Foundation
import ScenarioEngine

/// The draft itself: the scenario document the plan gives, written a member and an element at
/// a time, so a long trace's draft is never held whole.
extension TraceImporter {
    /// What writing a draft leaves besides the text.
    struct Drafted {
        var summary: Summary
        /// The entry each exchange was made from, by exchange.
        var exchangeEntries: [Int]
        /// The entry each step was made from, by step.
        var stepEntries: [Int]
    }

    /// Writes the scenario document for `log` to `sink`: name, description, tags, given,
    /// exchanges, steps, expect.
    func writeDraft(from log: HARLog, file: String, to sink: inout some DraftSink) throws(Failure) -> Drafted {
        guard let requestAction = spec.requestAction else {
            throw Failure(
                file: file,
                """
                this driver does not say how to import traces: add to it
                    var traceImport: TraceImportSpec { TraceImportSpec(requestAction: "ACTION") }
                naming the action that sends any request (arguments method, path, query, json); \
                Documentation/api.md, "Importing traces", has the rest
                """)
        }
        var summary = Summary()
        summary.entries = log.entries.count
        summary.attachedBodiesNotFound = log.attachedBodiesNotFound
        var items: [Item] = []
        items.reserveCapacity(log.entries.count)
        // The hosts left out, for the hint when `--host` leaves nothing (a few, in trace order).
        var otherHosts: [String] = []
        for (index, entry) in log.entries.enumerated() {
            // A proxy's tunnel, in any URL form (`api.example.com:443` is no http(s) URL).
            if entry.request.method == "CONNECT" {
                summary.droppedTunnels += 1
                continue
            }
            guard let item = Item(entry, index: index) else {
                summary.droppedUnusable += 1
                continue
            }
            let dropped = summary.droppedByHost
            guard keeps(item, summary: &summary) else {
                if summary.droppedByHost > dropped, otherHosts.count < 5, !otherHosts.contains(item.hostAndPort) {
                    otherHosts.append(item.hostAndPort)
                }
                continue
            }
            items.append(item)
        }
        // Exporters may list entries out of order; a stable sort keeps ties in file order.
        items.sort { ($0.entry.started, $0.index) < ($1.entry.started, $1.index) }
        guard !items.isEmpty else {
            let reasons = summary.notes.isEmpty ? "the trace has no entries" : "left out: " + summary.notes.joined(separator: ", ")
            throw Failure(
                file: file, "no entries left to import (\(reasons))",
                hint: summary.droppedByHost > 0
                    ? "check --host against the hosts in the trace: " + otherHosts.joined(separator: ", ")
                    : summary.droppedAssets > 0
                        ? "export the requests of the bug again as HAR, or import the assets too with --keep-static"
                        : "export the requests of the bug again as HAR")
        }
        classify(&items)
        let credentials = storedCredentials(items)
        if spec.given == nil, !credentials.isEmpty {
            let what = credentials.accessToken != nil ? "a bearer token" : "a refresh token"
            throw Failure(
                file: file,
                """
                the trace sends \(what) it never obtained, so the app must start signed in, but this driver's \
                traceImport has no '\(K.given)' to store it: add to its TraceImportSpec
                    given: { credentials in ["session": ["accessToken": .string(credentials.accessToken ?? "")]] }
                shaped as the driver reads '\(K.given)' (credentials.refreshToken too, if it keeps one), or \
                given: { _ in [:] } if the stack adds that credential by itself
                """)
        }
        let groups = stepGroups(items, summary: &summary)
        let exchanges = planExchanges(&items, groups: groups)
        summary.exchanges = exchanges.count
        summary.appRequests = items.filter { $0.role != .step }.count
        summary.withoutResponse = items.filter { $0.entry.response == nil }.count

        let base = (file as NSString).lastPathComponent
        sink.member(K.name, .string(options.name ?? "Imported from \(base)"))
        sink.member(
            K.description,
            .string(
                "Imported from \(base)\(log.creator.isEmpty ? "" : " (\(log.creator))"): \(items.count) requests. "
                    + "DRAFT: '\(K.expect)' holds only the request counts the trace shows; add the state and alerts this bug is about."))
        sink.member(K.tags, ["imported"])
        sink.member(K.given, try given(items, credentials: credentials, file: file))
        sink.beginArray(K.exchanges)
        for plan in exchanges { sink.element(exchangeDocument(plan, items: items, summary: &summary)) }
        let fallbacks = fallbackDocuments(items, exchanges: exchanges, summary: summary)
        for fallback in fallbacks { sink.element(fallback) }
        sink.endArray()
        summary.exchanges += fallbacks.count
        sink.beginArray(K.steps)
        let stepEntries = try writeSteps(
            items, groups: groups, exchanges: exchanges, requestAction: requestAction, file: file, summary: &summary, to: &sink)
        sink.endArray()
        summary.steps = stepEntries.count
        var counts = JSONObject()
        // Ids are unique by construction: append, not the keyed setter (a search per member).
        // An optional exchange (a followed redirect) may or may not be used: it is not counted,
        // and then neither is the total.
        for exchange in exchanges where !exchange.optional { counts.appendNew(exchange.id, .number(Double(exchange.times))) }
        var requests: JSONObject = [:]
        if !exchanges.contains(where: \.optional) { requests[K.total] = .number(Double(items.count)) }
        if !counts.isEmpty { requests[K.counts] = .object(counts) }
        if !requests.isEmpty { sink.member(K.expect, [K.requests: .object(requests)]) }
        return Drafted(summary: summary, exchangeEntries: exchanges.map(\.entry), stepEntries: stepEntries)
    }

    // MARK: Exchanges

    private func exchangeDocument(_ plan: ExchangePlan, items: [Item], summary: inout Summary) -> JSONValue {
        let item = items[plan.first]
        var object: JSONObject = [K.id: .string(plan.id), K.request: requestMatcher(item, summary: &summary)]
        if let response = item.entry.response {
            object[K.response] = responseDocument(response, summary: &summary)
        } else {
            // No response recorded: the request failed or was cancelled before an answer.
            object[K.fault] = "networkConnectionLost"
        }
        if plan.times != 1 { object[K.times] = .number(Double(plan.times)) }
        if let after = plan.after { object[K.after] = .string(after) }
        let latency = Int(item.entry.time.rounded())
        if latency > 0 { object[K.latency] = .string("\(latency)ms") }
        if plan.group != nil, plan.times > 1 { object[K.release] = [K.whenPending: .number(Double(plan.times))] }
        // A followed redirect depends on the transport, not the app: the run may not repeat it.
        if plan.optional { object[K.optional] = true }
        return .object(object)
    }

    func requestMatcher(_ item: Item, summary: inout Summary) -> JSONValue {
        var matcher: JSONObject = [K.method: .string(item.entry.request.method), K.path: .string(decodedPath(item.path))]
        if !item.query.isEmpty { matcher[K.query] = queryObject(item.query, summary: &summary) }
        if let authorization = item.entry.request.headers.first(named: "Authorization") {
            matcher[K.headers] = ["Authorization": .string(authorization)]
        }
        if let body = item.entry.request.body, !body.isEmpty {
            if let json = JSONValue.parse(Data(body.utf8)) {
                if json.depth <= Self.maximumBodyDepth {
                    matcher[K.json] = json
                } else {
                    summary.deepBodiesAsText += 1
                    matcher[K.text] = .string(body)
                }
            } else if item.role == .step || item.role == .retry, dedicatedCall(item) == nil {
                // The request action sends JSON bodies only: asking for this one would fail every run.
                summary.bodiesTheStepCannotSend += 1
            } else {
                matcher[K.text] = .string(body)
            }
        }
        return .object(matcher)
    }

    func responseDocument(_ response: HARLog.Response, summary: inout Summary) -> JSONValue {
        var object: JSONObject = [K.status: .number(Double(response.status))]
        let headers = keptHeaders(response.headers, repeatedSetCookies: &summary.repeatedNamesKeptOnce)
        if !headers.isEmpty { object[K.headers] = .object(JSONObject(headers.map { ($0.name, .string($0.value)) })) }
        if !response.body.isEmpty {
            var json = JSONValue.parse(response.body).flatMap { $0.objectValue != nil || $0.arrayValue != nil ? $0 : nil }
            if let parsed = json, parsed.holdsIntegersBeyondDoubles {
                // A 64-bit id would be rounded as a scenario's JSON number: the bytes go as text.
                summary.bigIntegerBodiesAsText += 1
                json = nil
            }
            if let json, json.depth > Self.maximumBodyDepth { summary.deepBodiesAsText += 1 }
            if let json, json.depth <= Self.maximumBodyDepth {
                object[K.json] = json
            } else if !BodyKind.isBinary(response.body, contentType: response.mimeType),
                let text = String(data: response.body, encoding: .utf8)
            {
                object[K.text] = .string(text)
            } else {
                object["base64"] = .string(response.body.base64EncodedString())
            }
        }
        return .object(object)
    }

    // MARK: Steps

    /// Writes the steps to `sink`; returns the entry each was made from, for issues.
    private func writeSteps(
        _ items: [Item], groups: [[Int]], exchanges: [ExchangePlan], requestAction: String, file: String, summary: inout Summary,
        to sink: inout some DraftSink
    ) throws(Failure) -> [Int] {
        var entries: [Int] = []
        var currentEntry = items.first?.index ?? 0
        func add(_ step: JSONValue) {
            sink.element(step)
            entries.append(currentEntry)
        }
        var clockEnd = items.first?.entry.started ?? Date(timeIntervalSince1970: 0)
        // How many requests each exchange has served so far, for the check after each step.
        var served = [Int](repeating: 0, count: exchanges.count)
        if let startAction = spec.startAction, items.first?.role == .start {
            add([K.do: .string(startAction)])
            let started = items.prefix { $0.role == .start }
            clockEnd = started.map(\.entry.ended).max() ?? clockEnd
            add(check(started.map(\.exchange), exchanges: exchanges, served: &served))
        }
        // Each step lasts until the next one starts: the stack's own requests in between are its.
        let starts = groups.map { items[$0[0]].entry.started }
        var cursor = 0
        for (number, group) in groups.enumerated() {
            currentEntry = items[group[0]].index
            let start = starts[number]
            let gap = start.timeIntervalSince(clockEnd) * 1000
            if gap >= 1 {
                var gapMilliseconds = Int(min(gap, Double(Self.maximumGap)).rounded(.down))
                if gap > Double(Self.maximumGap) {
                    // Days between two requests of one bug are a capture spanning sessions, not a wait to replay.
                    summary.clampedGaps += 1
                    gapMilliseconds = Self.maximumGap
                }
                if Duration.milliseconds(gapMilliseconds) >= options.minimumGap {
                    add([K.advance: .string(Self.durationText(milliseconds: gapMilliseconds))])
                }
            }
            var calls: [(action: String, arguments: JSONValue)] = []
            for position in group { calls.append(try call(items[position], action: requestAction, file: file, summary: &summary)) }
            let outcomes = group.map { outcome(items, for: $0) }
            if calls.count == 1 {
                var step: JSONObject = [K.do: .string(calls[0].action), K.with: calls[0].arguments]
                if let outcome = outcomes[0] { step[K.expect] = outcome }
                add(.object(step))
            } else if Set(calls.map { $0.action + $0.arguments.compactText }).count == 1
                && Set(outcomes.map { $0?.compactText ?? "" }).count == 1
            {
                var step: JSONObject = [
                    K.do: .string(calls[0].action), K.with: calls[0].arguments, K.parallel: .number(Double(calls.count)),
                ]
                if let outcome = outcomes[0] { step[K.expect] = outcome }
                add(.object(step))
            } else if let staggered = staggered(group, items: items, calls: calls, outcomes: outcomes, number: number) {
                for step in staggered { add(step) }
            } else {
                let members: [JSONValue] = zip(calls, outcomes).map { call, outcome in
                    var member: JSONObject = [K.do: .string(call.action), K.with: call.arguments]
                    if let outcome { member[K.expect] = outcome }
                    return .object(member)
                }
                add([K.group: .array(members)])
            }
            // The step stands for its requests: a step that sends none of them fails here.
            add(check(group.map { items[$0].exchange }, exchanges: exchanges, served: &served))
            // The items are sorted by start: walk them once, not once per step.
            let nextStart = number + 1 < starts.count ? starts[number + 1] : Date.distantFuture
            while cursor < items.count, items[cursor].entry.started < start { cursor += 1 }
            while cursor < items.count, items[cursor].entry.started < nextStart {
                clockEnd = max(clockEnd, items[cursor].entry.ended)
                cursor += 1
            }
        }
        return entries
    }

    /// `{"check": {"requests": {"counts": ...}}}`: the exchanges a step's requests used have
    /// served as many requests as the trace shows by then.
    private func check(_ used: [Int], exchanges: [ExchangePlan], served: inout [Int]) -> JSONValue {
        var counts = JSONObject()
        var seen = Set<Int>()
        for exchange in used where exchange >= 0 {
            served[exchange] += 1
            seen.insert(exchange)
        }
        for exchange in seen.sorted() where !exchanges[exchange].optional {
            counts.appendNew(exchanges[exchange].id, .number(Double(served[exchange])))
        }
        return [K.check: [K.requests: [K.counts: .object(counts)]]]
    }

    /// A success the trace shows (the last answer of the call, after any retry) is expected again.
    private func outcome(_ items: [Item], for position: Int) -> JSONValue? {
        let key = items[position].callKey
        var final = items[position].entry.response?.status
        var index = position + 1
        while index < items.count, items[index].role != .step {
            if items[index].role == .retry, items[index].callKey == key { final = items[index].entry.response?.status }
            index += 1
        }
        guard let final, (200...299).contains(final) else { return nil }
        return [K.ok: true]
    }

    /// The path as the stack writes it; kept percent-encoded where decoding would make it something
    /// a scenario path cannot be (a `?` or `#` inside it).
    func decodedPath(_ path: String) -> String {
        // Without an escape there is nothing to decode, and the path came from a URL's path.
        guard path.utf8.contains(UInt8(ascii: "%")) else { return path }
        guard let decoded = path.removingPercentEncoding, !decoded.utf8.contains(UInt8(ascii: "?")),
            !decoded.utf8.contains(UInt8(ascii: "#")), decoded.hasPrefix("/")
        else {
            return path
        }
        return decoded
    }

    /// A query as a scenario writes it: an object, so a repeated name keeps its first value (counted).
    func queryObject(_ query: [(name: String, value: String)], summary: inout Summary) -> JSONValue {
        var object = JSONObject()
        for item in query {
            if object[item.name] == nil { object[item.name] = .string(item.value) } else { summary.repeatedNamesKeptOnce += 1 }
        }
        return .object(object)
    }

    static func durationText(milliseconds: Int) -> String {
        var rest = milliseconds
        var text = ""
        for (unit, size) in [("h", 3_600_000), ("m", 60_000), ("s", 1_000)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        if rest > 0 || text.isEmpty { text += "\(rest)ms" }
        return text
    }
}

extension JSONValue {
    /// Whether it holds an integer of 2^53 or more, which a JSON number (a double) may have
    /// rounded on the way in (a 64-bit id): the text it came from is the exact value.
    var holdsIntegersBeyondDoubles: Bool {
        switch self {
        case .number(let number): abs(number) >= 9_007_199_254_740_992 && number == number.rounded()
        case .array(let elements): elements.contains { $0.holdsIntegersBeyondDoubles }
        case .object(let object): object.contains { $0.value.holdsIntegersBeyondDoubles }
        default: false
        }
    }

    /// How deeply arrays and objects nest in it (a scalar is 0).
    var depth: Int {
        switch self {
        case .array(let elements): 1 + (elements.lazy.map(\.depth).max() ?? 0)
        case .object(let object): 1 + (object.lazy.map(\.value.depth).max() ?? 0)
        default: 0
        }
    }
}

private typealias K = ScenarioKey
