import Foundation

/// Turns a HAR capture into a scenario document in this package's format.
///
/// - Order: exchanges keep capture order; one route answering differently over time becomes
///   ordered exchanges (`times`, `after`).
/// - Time: gaps between the app's actions become `advance` steps, entry times become `latency`,
///   and virtual time starts at the capture's first instant (so HTTP-date `Retry-After` still works).
/// - Concurrency: overlapping requests become one parallel step whose answers are held
///   (`release.whenPending`) until all are in flight.
/// - The stack's own requests (``TraceImportSpec/appRequests``), retries after a 401 and
///   followed redirects become exchanges only; everything else becomes a step with the driver's
///   request action.
/// - `expect` is a draft (request counts), marked in the description for the author to finish.
public struct TraceImporter: Sendable {
    /// Choices for one import.
    public struct Options: Sendable {
        /// Keep only entries for this host (`nil`: all).
        public var host: String?
        /// The scenario's name (`nil`: derived from the file name).
        public var name: String?
        /// Keep images, style sheets, scripts and fonts (dropped by default).
        public var keepStaticAssets: Bool
        /// Gaps shorter than this between actions are noise, not `advance` steps.
        public var minimumGap: Duration

        /// Creates options.
        public init(host: String? = nil, name: String? = nil, keepStaticAssets: Bool = false, minimumGap: Duration = .milliseconds(500)) {
            self.host = host
            self.name = name
            self.keepStaticAssets = keepStaticAssets
            self.minimumGap = minimumGap
        }
    }

    /// What the import produced, for the command to print.
    public struct Summary: Sendable, Hashable {
        /// Entries read from the file.
        public var entries = 0
        /// Entries dropped by the host filter or as static assets.
        public var dropped = 0
        /// Exchanges written.
        public var exchanges = 0
        /// Steps written.
        public var steps = 0
        /// Entries the stack sends by itself (exchanges only).
        public var appRequests = 0
        /// Entries without a response (written as faults).
        public var withoutResponse = 0
    }

    /// Why a trace cannot be imported.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong and what to do.
        public var description: String
    }

    /// What the driver says about its stack.
    public let spec: TraceImportSpec
    /// The choices.
    public let options: Options

    /// Creates an importer.
    public init(spec: TraceImportSpec, options: Options = Options()) {
        self.spec = spec
        self.options = options
    }

    /// The scenario document for `log`, read from `file` (named in the description).
    public func makeScenario(from log: HARLog, file: String) throws(Failure) -> (scenario: JSONValue, summary: Summary) {
        guard let requestAction = spec.requestAction else {
            throw Failure(
                description: """
                    this driver does not say how to import traces: add to it
                        var traceImport: TraceImportSpec { TraceImportSpec(requestAction: "ACTION") }
                    naming the action that sends any request (arguments method, path, query, json); \
                    Documentation/api.md, "Importing traces", has the rest
                    """)
        }
        var summary = Summary()
        summary.entries = log.entries.count
        var items: [Item] = []
        for (index, entry) in log.entries.enumerated() {
            guard let item = Item(entry, index: index), keeps(item) else {
                summary.dropped += 1
                continue
            }
            items.append(item)
        }
        // Exporters may list entries out of order; a stable sort keeps ties in file order.
        items.sort { ($0.entry.started, $0.index) < ($1.entry.started, $1.index) }
        guard !items.isEmpty else {
            throw Failure(description: "no entries left to import (\(summary.dropped) dropped by the host filter or as static assets)")
        }
        classify(&items)
        let credentials = storedCredentials(items)
        if spec.given == nil, !credentials.isEmpty {
            let what = credentials.accessToken != nil ? "a bearer token" : "a refresh token"
            throw Failure(
                description: """
                    the trace sends \(what) it never obtained, so the app must start signed in, but this driver's \
                    traceImport has no 'given' to store it: add to its TraceImportSpec
                        given: { credentials in ["session": ["accessToken": .string(credentials.accessToken ?? "")]] }
                    shaped as the driver reads 'given' (credentials.refreshToken too, if it keeps one), or \
                    given: { _ in [:] } if the stack adds that credential by itself
                    """)
        }
        let groups = stepGroups(items)
        let exchanges = buildExchanges(&items, groups: groups)
        let steps = buildSteps(items, groups: groups, exchanges: exchanges, requestAction: requestAction)
        summary.exchanges = exchanges.count
        summary.steps = steps.count
        summary.appRequests = items.filter { $0.role != .step }.count
        summary.withoutResponse = items.filter { $0.entry.response == nil }.count

        var document: JSONObject = [:]
        let base = (file as NSString).lastPathComponent
        document["name"] = .string(options.name ?? "Imported from \(base)")
        document["description"] = .string(
            "Imported from \(base)\(log.creator.isEmpty ? "" : " (\(log.creator))"): \(items.count) requests. "
                + "DRAFT: 'expect' holds only the request counts the trace shows; add the state and alerts this bug is about.")
        document["tags"] = ["imported"]
        document["given"] = given(items, credentials: credentials)
        document["exchanges"] = .array(exchanges.map(\.document))
        document["steps"] = .array(steps)
        var counts = JSONObject()
        // Ids are unique by construction: append, not the keyed setter (a search per member).
        for exchange in exchanges { counts.appendNew(exchange.id, .number(Double(exchange.times))) }
        document["expect"] = ["requests": ["total": .number(Double(items.count)), "counts": .object(counts)]]
        return (.object(document), summary)
    }

    // MARK: Items

    /// One kept entry with what the importer worked out about it.
    struct Item {
        enum Role { case step, app, start, retry, redirect }
        var entry: HARLog.Entry
        var index: Int
        var path: String
        var query: [(name: String, value: String)]
        var role = Role.step
        var exchange = -1
        var group = -1

        init?(_ entry: HARLog.Entry, index: Int) {
            // An entry without a usable URL or method cannot become a request; it is dropped.
            guard let components = URLComponents(string: entry.request.url), !entry.request.method.isEmpty,
                entry.request.method.allSatisfy({ $0.isASCII && $0.isLetter })
            else { return nil }
            self.entry = entry
            self.index = index
            self.path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            self.query = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
            self.host = components.host ?? ""
        }

        var host: String

        /// Method, path, query and body: what makes two requests the same call.
        var callKey: String {
            entry.request.method + " " + path + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&") + "\n"
                + (entry.request.body ?? "")
        }

        /// The call key plus the credential: what an exchange matches on.
        var matchKey: String { callKey + "\n" + (entry.request.headers.first(named: "Authorization") ?? "") }
    }

    private func keeps(_ item: Item) -> Bool {
        if let host = options.host, item.host.caseInsensitiveCompare(host) != .orderedSame { return false }
        if options.keepStaticAssets { return true }
        let staticExtensions = [
            "js", "mjs", "css", "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "woff", "woff2", "ttf", "otf", "map",
        ]
        if let dot = item.path.lastIndex(of: "."), staticExtensions.contains(item.path[item.path.index(after: dot)...].lowercased()) {
            return false
        }
        let mime = item.entry.response?.mimeType?.lowercased() ?? ""
        return !(mime.hasPrefix("image/") || mime.hasPrefix("font/") || mime.contains("css") || mime.contains("javascript"))
    }

    private func classify(_ items: inout [Item]) {
        let own = { (item: Item) in self.spec.appRequests.contains { $0.matches(method: item.entry.request.method, path: item.path) } }
        let start = { (item: Item) in self.spec.startRequests.contains { $0.matches(method: item.entry.request.method, path: item.path) } }
        var index = 0
        if spec.startAction != nil, let first = items.first, start(first) {
            while index < items.count, start(items[index]) || own(items[index]) {
                items[index].role = .start
                index += 1
            }
        }
        // Calls answered 401 and not yet retried, by call key: the stack repeats them itself.
        var awaitingRetry: [String: Int] = [:]
        var ownSince = false
        for position in index..<items.count {
            let item = items[position]
            if own(item) {
                items[position].role = .app
                ownSince = true
                continue
            }
            if position > 0, let previous = items[position - 1].entry.response, (300...399).contains(previous.status),
                let location = previous.headers.first(named: "Location"),
                URLComponents(string: location)?.path == item.path
            {
                items[position].role = .redirect
                continue
            }
            if ownSince, let count = awaitingRetry[item.callKey], count > 0 {
                items[position].role = .retry
                awaitingRetry[item.callKey] = count - 1
                continue
            }
            if item.entry.response?.status == 401 { awaitingRetry[item.callKey, default: 0] += 1 }
            ownSince = false
        }
    }

    /// Step items in overlapping runs: each run is one step.
    private func stepGroups(_ items: [Item]) -> [[Int]] {
        var groups: [[Int]] = []
        var groupEnd = Date.distantPast
        for (position, item) in items.enumerated() where item.role == .step {
            // A recorder that counted requests in flight says for sure; otherwise times overlap.
            let overlaps = item.entry.inFlight.map { $0 > 0 } ?? (item.entry.started < groupEnd)
            if let last = groups.indices.last, overlaps {
                groups[last].append(position)
                groupEnd = max(groupEnd, item.entry.ended)
            } else {
                groups.append([position])
                groupEnd = item.entry.ended
            }
        }
        return groups
    }

    // MARK: Exchanges

    struct DraftExchange {
        var id: String
        var times: Int
        var document: JSONValue
    }

    private func buildExchanges(_ items: inout [Item], groups: [[Int]]) -> [DraftExchange] {
        var groupOf: [Int: Int] = [:]
        for (number, group) in groups.enumerated() where group.count > 1 {
            for position in group { groupOf[position] = number }
        }
        var drafts: [(id: String, first: Int, times: Int, after: String?, group: Int?)] = []
        var lastByKey: [String: Int] = [:]  // key → draft index
        var usedIDs: Set<String> = []
        var nextNumbers: [String: Int] = [:]
        for position in items.indices {
            let item = items[position]
            let key = item.matchKey
            let group = groupOf[position]
            if let draftIndex = lastByKey[key], sameAnswer(items[drafts[draftIndex].first], item), drafts[draftIndex].group == group,
                items[drafts[draftIndex].first].role == item.role || (item.role != .step && items[drafts[draftIndex].first].role != .step)
            {
                drafts[draftIndex].times += 1
                items[position].exchange = draftIndex
                continue
            }
            let id = uniqueID(for: item, used: &usedIDs, nextNumber: &nextNumbers)
            let after = lastByKey[key].map { drafts[$0].id }
            drafts.append((id, position, 1, after, group))
            lastByKey[key] = drafts.count - 1
            items[position].exchange = drafts.count - 1
        }
        return drafts.map { draft in
            let item = items[draft.first]
            var object: JSONObject = ["id": .string(draft.id), "request": requestMatcher(item)]
            if let response = item.entry.response {
                object["response"] = responseDocument(response)
            } else {
                // No response recorded: the request failed or was cancelled before an answer.
                object["fault"] = "networkConnectionLost"
            }
            if draft.times != 1 { object["times"] = .number(Double(draft.times)) }
            if let after = draft.after { object["after"] = .string(after) }
            let latency = Int(item.entry.time.rounded())
            if latency > 0 { object["latency"] = .string("\(latency)ms") }
            if draft.group != nil, draft.times > 1 { object["release"] = ["whenPending": .number(Double(draft.times))] }
            // A followed redirect depends on the transport, not the app: the run may not repeat it.
            if item.role == .redirect { object["optional"] = true }
            return DraftExchange(id: draft.id, times: draft.times, document: .object(object))
        }
    }

    private func sameAnswer(_ first: Item, _ second: Item) -> Bool {
        guard let a = first.entry.response, let b = second.entry.response else {
            return first.entry.response == nil && second.entry.response == nil
        }
        return a.status == b.status && a.body == b.body && keptHeaders(a.headers) == keptHeaders(b.headers)
    }

    private func uniqueID(for item: Item, used: inout Set<String>, nextNumber: inout [String: Int]) -> String {
        let slug = item.path.split(separator: "/").map { part in
            String(part.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
        }.joined(separator: "-")
        let status = item.entry.response.map { String($0.status) } ?? "fault"
        let base = "\(item.entry.request.method.lowercased())-\(slug.isEmpty ? "root" : slug)-\(status)"
        var id = base
        // Counting on from the last number given to this base keeps long traces linear.
        var number = nextNumber[base, default: 2]
        while !used.insert(id).inserted {
            id = "\(base)-\(number)"
            number += 1
        }
        nextNumber[base] = number
        return id
    }

    private func requestMatcher(_ item: Item) -> JSONValue {
        var matcher: JSONObject = ["method": .string(item.entry.request.method), "path": .string(decodedPath(item.path))]
        if !item.query.isEmpty { matcher["query"] = queryObject(item.query) }
        if let authorization = item.entry.request.headers.first(named: "Authorization") {
            matcher["headers"] = ["Authorization": .string(authorization)]
        }
        if let body = item.entry.request.body, !body.isEmpty {
            if let json = JSONValue.parse(Data(body.utf8)) {
                matcher["json"] = json
            } else {
                matcher["text"] = .string(body)
            }
        }
        return .object(matcher)
    }

    private func responseDocument(_ response: HARLog.Response) -> JSONValue {
        var object: JSONObject = ["status": .number(Double(response.status))]
        let headers = keptHeaders(response.headers)
        if !headers.isEmpty { object["headers"] = .object(JSONObject(headers.map { ($0.name, .string($0.value)) })) }
        if !response.body.isEmpty {
            if let json = JSONValue.parse(response.body), json.objectValue != nil || json.arrayValue != nil {
                object["json"] = json
            } else if let text = String(data: response.body, encoding: .utf8) {
                object["text"] = .string(text)
            } else {
                object["base64"] = .string(response.body.base64EncodedString())
            }
        }
        return .object(object)
    }

    /// Response fields that shape behaviour; transport bookkeeping is left out.
    private func keptHeaders(_ fields: [HARLog.Field]) -> [HARLog.Field] {
        let dropped: Set<String> = [
            "content-length", "transfer-encoding", "connection", "keep-alive", "date", "server", "content-encoding", "vary",
        ]
        var seen: Set<String> = []
        return fields.filter { field in
            let name = field.name.lowercased()
            // Scenario headers are an object: a repeated name keeps its first value.
            return !dropped.contains(name) && seen.insert(name).inserted
        }
    }

    // MARK: Steps

    private func buildSteps(_ items: [Item], groups: [[Int]], exchanges: [DraftExchange], requestAction: String) -> [JSONValue] {
        var steps: [JSONValue] = []
        var clockEnd = items.first?.entry.started ?? Date(timeIntervalSince1970: 0)
        if let startAction = spec.startAction, items.first?.role == .start {
            steps.append(["do": .string(startAction)])
            clockEnd = items.prefix { $0.role == .start }.map(\.entry.ended).max() ?? clockEnd
        }
        // Each step lasts until the next one starts: the stack's own requests in between are its.
        let starts = groups.map { items[$0[0]].entry.started }
        var cursor = 0
        for (number, group) in groups.enumerated() {
            let start = starts[number]
            let gapMilliseconds = Int((start.timeIntervalSince(clockEnd) * 1000).rounded(.down))
            if gapMilliseconds > 0, Duration.milliseconds(gapMilliseconds) >= options.minimumGap {
                steps.append(["advance": .string(Self.durationText(milliseconds: gapMilliseconds))])
            }
            let calls = group.map { call(items[$0], action: requestAction) }
            let outcomes = group.map { outcome(items, for: $0) }
            if calls.count == 1 {
                var step: JSONObject = ["do": .string(calls[0].action), "with": calls[0].arguments]
                if let outcome = outcomes[0] { step["expect"] = outcome }
                steps.append(.object(step))
            } else if Set(calls.map { $0.action + $0.arguments.compactText }).count == 1
                && Set(outcomes.map { $0?.compactText ?? "" }).count == 1
            {
                var step: JSONObject = [
                    "do": .string(calls[0].action), "with": calls[0].arguments, "parallel": .number(Double(calls.count)),
                ]
                if let outcome = outcomes[0] { step["expect"] = outcome }
                steps.append(.object(step))
            } else {
                let members: [JSONValue] = zip(calls, outcomes).map { call, outcome in
                    var member: JSONObject = ["do": .string(call.action), "with": call.arguments]
                    if let outcome { member["expect"] = outcome }
                    return .object(member)
                }
                steps.append(["group": .array(members)])
            }
            // The items are sorted by start: walk them once, not once per step.
            let nextStart = number + 1 < starts.count ? starts[number + 1] : Date.distantFuture
            while cursor < items.count, items[cursor].entry.started < start { cursor += 1 }
            while cursor < items.count, items[cursor].entry.started < nextStart {
                clockEnd = max(clockEnd, items[cursor].entry.ended)
                cursor += 1
            }
        }
        return steps
    }

    /// The action a step item becomes, and its arguments.
    private func call(_ item: Item, action: String) -> (action: String, arguments: JSONValue) {
        let method = item.entry.request.method
        if let rule = spec.actionRules.first(where: { $0.route.matches(method: method, path: item.path) }) {
            let body = item.entry.request.body.flatMap { JSONValue.parse(Data($0.utf8)) }
            var arguments = JSONObject()
            for (argument, member) in rule.arguments.sorted(by: { $0.key < $1.key }) {
                if let value = body?[member] { arguments[argument] = value }
            }
            return (rule.action, .object(arguments))
        }
        return (action, requestArguments(item))
    }

    private func requestArguments(_ item: Item) -> JSONValue {
        var arguments: JSONObject = [:]
        if item.entry.request.method != "GET" { arguments["method"] = .string(item.entry.request.method) }
        arguments["path"] = .string(decodedPath(item.path))
        if !item.query.isEmpty { arguments["query"] = queryObject(item.query) }
        if let body = item.entry.request.body, !body.isEmpty, let json = JSONValue.parse(Data(body.utf8)) {
            arguments["json"] = json
        }
        return .object(arguments)
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
        return ["ok": true]
    }

    // MARK: Given

    private func given(_ items: [Item], credentials: TraceImportSpec.Credentials) -> JSONValue {
        var given: JSONObject = [:]
        if let first = items.first {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            given["clock"] = ["start": .string(formatter.string(from: first.entry.started))]
        }
        guard let build = spec.given else { return .object(given) }
        if case .object(let extra) = build(credentials) {
            for member in extra { given[member.key] = member.value }
        }
        return .object(given)
    }

    /// The first bearer credential and refresh token the trace sends that no answer before them
    /// handed out: what the app had stored when the capture began.
    private func storedCredentials(_ items: [Item]) -> TraceImportSpec.Credentials {
        var seenInResponses = ""
        var access: String?
        var refresh: String?
        for item in items {
            if access == nil, let header = item.entry.request.headers.first(named: "Authorization"),
                let credential = SecretRedactor.credentials(in: header).first, !seenInResponses.contains(credential)
            {
                access = credential
            }
            if refresh == nil, let body = item.entry.request.body, let json = JSONValue.parse(Data(body.utf8)),
                let token = Self.firstValue(in: json, key: "refreshtoken"), !seenInResponses.contains(token)
            {
                refresh = token
            }
            // Only a credential the trace did not hand out itself comes from a stored session.
            if let response = item.entry.response, seenInResponses.utf8.count < 4_000_000 {
                seenInResponses += String(decoding: response.body.prefix(100_000), as: UTF8.self)
            }
            if access != nil && refresh != nil { break }
        }
        return TraceImportSpec.Credentials(accessToken: access, refreshToken: refresh)
    }

    private static func firstValue(in json: JSONValue, key: String) -> String? {
        switch json {
        case .object(let object):
            for member in object {
                if member.key.lowercased().filter({ $0 != "_" && $0 != "-" }) == key, let text = member.value.stringValue { return text }
                if let found = firstValue(in: member.value, key: key) { return found }
            }
            return nil
        case .array(let elements): return elements.lazy.compactMap { firstValue(in: $0, key: key) }.first
        default: return nil
        }
    }

    private func decodedPath(_ path: String) -> String { path.removingPercentEncoding ?? path }

    private func queryObject(_ query: [(name: String, value: String)]) -> JSONValue {
        var object = JSONObject()
        for item in query where object[item.name] == nil { object[item.name] = .string(item.value) }
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
