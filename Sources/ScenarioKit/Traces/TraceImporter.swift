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
        /// Entries left out, all reasons together.
        public var dropped: Int { droppedByHost + droppedAssets + droppedDocuments + droppedUnusable }
        /// Entries for other hosts than `--host`.
        public var droppedByHost = 0
        /// Images, style sheets, scripts, fonts and favicons.
        public var droppedAssets = 0
        /// Page loads of a browser export (HTML documents the browser navigated to).
        public var droppedDocuments = 0
        /// Entries whose URL or method no request can have (not http(s), no path, a method with other characters).
        public var droppedUnusable = 0
        /// Gaps longer than ``TraceImporter/maximumGap`` (or before a start instant out of range), shortened.
        public var clampedGaps = 0
        /// Runs of more than ``TraceImporter/maximumConcurrent`` overlapping requests, split into steps of at most that many.
        public var splitGroups = 0
        /// Bodies nested too deeply to be JSON in a scenario, written as exact text instead.
        public var deepBodiesAsText = 0
        /// Requests a dedicated action would send but that it cannot send as captured (arguments missing or not JSON), imported as plain requests.
        public var plainInsteadOfAction = 0

        /// One line for the command: what was left out, clamped or split, and why.
        public var notes: [String] {
            var notes: [String] = []
            if droppedByHost > 0 { notes.append("\(droppedByHost) for other hosts") }
            if droppedAssets > 0 { notes.append("\(droppedAssets) static assets (--keep-static keeps them)") }
            if droppedDocuments > 0 { notes.append("\(droppedDocuments) page loads of a browser") }
            if droppedUnusable > 0 { notes.append("\(droppedUnusable) without a usable http(s) URL or method") }
            if clampedGaps > 0 { notes.append("\(clampedGaps) gaps shortened to 24h") }
            if splitGroups > 0 { notes.append("\(splitGroups) runs of over \(TraceImporter.maximumConcurrent) concurrent requests split") }
            if deepBodiesAsText > 0 { notes.append("\(deepBodiesAsText) deeply nested bodies kept as text") }
            if plainInsteadOfAction > 0 {
                notes.append("\(plainInsteadOfAction) action requests its action cannot send, imported as plain requests")
            }
            return notes
        }
        /// Exchanges written.
        public var exchanges = 0
        /// Steps written.
        public var steps = 0
        /// Entries the stack sends by itself (exchanges only).
        public var appRequests = 0
        /// Entries without a response (written as faults).
        public var withoutResponse = 0
    }

    /// Why a trace cannot be imported: where (file, line and column of the entry, its JSON path),
    /// what is wrong and what to do, in the `file:line:column: error:` form of load issues.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The issue, located in the trace.
        public var issue: LoadIssue
        /// The entry it is about, when one is.
        public var entry: Int?

        /// Creates a failure about the whole trace (`$.log.entries`) or one entry of it.
        public init(
            file: String, entry: HARLog.Entry? = nil, index: Int? = nil, at subpath: String = "", _ message: String, hint: String? = nil
        ) {
            let entries = JSONPath.appending(JSONPath.appending(JSONPath.root, key: "log"), key: "entries")
            let path = index.map { JSONPath.appending(entries, index: $0) + subpath } ?? entries
            let line = entry?.line ?? 1
            let column = entry?.column ?? 1
            issue = LoadIssue(
                location: ScenarioLocation(file: file, line: max(1, line), column: max(1, column), path: path), message: message, hint: hint
            )
            self.entry = index
        }

        /// `file:line:column: error: message (at $.log.entries[i]) — what to do`.
        public var description: String { issue.description }
    }

    /// The longest gap written as one `advance`; longer ones are shortened and counted.
    public static let maximumGap = 86_400_000
    /// The most overlapping requests one step holds (the loader's bound on `parallel`).
    public static let maximumConcurrent = ScenarioDecoder.maximumParallel
    /// How deeply a body may nest to be written as JSON: the scenario's own nesting around it
    /// (a group member's `with.json` is 7 levels down) must stay within the loader's bound.
    static let maximumBodyDepth = JSONTextParser.maximumDepth - 8

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
        let drafted = try draft(from: log, file: file)
        return (drafted.scenario, drafted.summary)
    }

    /// The scenario text for `log`, checked with the real loader (`actions` and `givenKeys` as
    /// the driver declares them) before it is returned: a draft the loader would reject is a
    /// ``Failure`` naming the entry it came from, never a file.
    public func importScenario(
        from log: HARLog, file: String, actions: [ActionSpec], givenKeys: [GivenSpec]
    ) throws(Failure) -> (text: String, summary: Summary) {
        let drafted = try draft(from: log, file: file)
        let text = drafted.scenario.prettyText + "\n"
        let loader = ScenarioLoader(actions: actions, givenKeys: givenKeys)
        guard case .failure(let failure) = loader.load(data: Data(text.utf8), file: "<imported>", id: "imported") else {
            return (text, drafted.summary)
        }
        let issue = failure.issues.first
        let path = issue?.location.path ?? ""
        // `$.exchanges[3]...` and `$.steps[7]...` lead back to the entry they were made from.
        func index(after prefix: String) -> Int? {
            guard path.hasPrefix(prefix) else { return nil }
            return Int(path.dropFirst(prefix.count).prefix { $0.isNumber })
        }
        var entry: Int?
        if let exchange = index(after: "$.exchanges["), exchange < drafted.exchangeEntries.count {
            entry = drafted.exchangeEntries[exchange]
        } else if let step = index(after: "$.steps["), step < drafted.stepEntries.count {
            entry = drafted.stepEntries[step]
        }
        let what = issue.map { "\($0.message) (at \($0.location.path) of the scenario)" } ?? "it does not load"
        throw Failure(
            file: file, entry: entry.flatMap { $0 < log.entries.count ? log.entries[$0] : nil }, index: entry,
            "the scenario this trace gives would not load: \(what)",
            hint: entry != nil
                ? "leave this entry out of the export (or cut the trace before it); please report it with the trace"
                : "please report this with the trace")
    }

    private func draft(from log: HARLog, file: String) throws(Failure) -> (
        scenario: JSONValue, summary: Summary, exchangeEntries: [Int], stepEntries: [Int]
    ) {
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
        var items: [Item] = []
        items.reserveCapacity(log.entries.count)
        for (index, entry) in log.entries.enumerated() {
            guard let item = Item(entry, index: index) else {
                summary.droppedUnusable += 1
                continue
            }
            guard keeps(item, summary: &summary) else { continue }
            items.append(item)
        }
        // Exporters may list entries out of order; a stable sort keeps ties in file order.
        items.sort { ($0.entry.started, $0.index) < ($1.entry.started, $1.index) }
        guard !items.isEmpty else {
            let reasons = summary.notes.isEmpty ? "the trace has no entries" : "left out: " + summary.notes.joined(separator: ", ")
            throw Failure(
                file: file, "no entries left to import (\(reasons))",
                hint: summary.droppedByHost > 0
                    ? "check --host against the hosts in the trace"
                    : "export the requests of the bug again as HAR (--keep-static keeps assets)")
        }
        classify(&items)
        let credentials = storedCredentials(items)
        if spec.given == nil, !credentials.isEmpty {
            let what = credentials.accessToken != nil ? "a bearer token" : "a refresh token"
            throw Failure(
                file: file,
                """
                the trace sends \(what) it never obtained, so the app must start signed in, but this driver's \
                traceImport has no 'given' to store it: add to its TraceImportSpec
                    given: { credentials in ["session": ["accessToken": .string(credentials.accessToken ?? "")]] }
                shaped as the driver reads 'given' (credentials.refreshToken too, if it keeps one), or \
                given: { _ in [:] } if the stack adds that credential by itself
                """)
        }
        let groups = stepGroups(items, summary: &summary)
        let exchanges = buildExchanges(&items, groups: groups, summary: &summary)
        let (steps, stepEntries) = try buildSteps(
            items, groups: groups, exchanges: exchanges, requestAction: requestAction, file: file, summary: &summary)
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
        // An optional exchange (a followed redirect) may or may not be used: it is not counted,
        // and then neither is the total.
        for exchange in exchanges where !exchange.optional { counts.appendNew(exchange.id, .number(Double(exchange.times))) }
        var requests: JSONObject = [:]
        if !exchanges.contains(where: \.optional) { requests["total"] = .number(Double(items.count)) }
        if !counts.isEmpty { requests["counts"] = .object(counts) }
        if !requests.isEmpty { document["expect"] = ["requests": .object(requests)] }
        return (.object(document), summary, exchanges.map(\.entry), stepEntries)
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
                entry.request.method.allSatisfy({ $0.isASCII && $0.isLetter }),
                ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
                components.percentEncodedPath.isEmpty || components.percentEncodedPath.hasPrefix("/")
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

    private func keeps(_ item: Item, summary: inout Summary) -> Bool {
        if let host = options.host, item.host.caseInsensitiveCompare(host) != .orderedSame {
            summary.droppedByHost += 1
            return false
        }
        let mime = item.entry.response?.mimeType?.lowercased() ?? ""
        let type = item.entry.resourceType ?? ""
        // A browser's page load: the document it navigated to. An API answering HTML to a fetch is kept.
        let accept = item.entry.request.headers.first(named: "Accept")?.lowercased() ?? ""
        if type == "document"
            || (type.isEmpty && item.entry.request.method == "GET" && mime.hasPrefix("text/html") && accept.contains("text/html"))
        {
            summary.droppedDocuments += 1
            return false
        }
        if options.keepStaticAssets { return true }
        let staticExtensions: Set<String> = [
            "js", "mjs", "css", "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "woff", "woff2", "ttf", "otf", "map",
        ]
        let staticTypes: Set<String> = ["image", "stylesheet", "script", "font", "media", "manifest", "texttrack"]
        var isStatic =
            staticTypes.contains(type) || mime.hasPrefix("image/") || mime.hasPrefix("font/") || mime.contains("css")
            || mime.contains("javascript")
        if let dot = item.path.lastIndex(of: "."), staticExtensions.contains(item.path[item.path.index(after: dot)...].lowercased()) {
            isStatic = true
        }
        if isStatic { summary.droppedAssets += 1 }
        return !isStatic
    }

    private func classify(_ items: inout [Item]) {
        let own = { (item: Item) in self.spec.appRequests.contains { $0.matches(method: item.entry.request.method, path: item.path) } }
        let start = { (item: Item) in self.spec.startRequests.contains { $0.matches(method: item.entry.request.method, path: item.path) } }
        var index = 0
        // The start action is claimed only when the trace opens with the first request it sends
        // (a health check): a trace that begins mid-session has no app start in it.
        if spec.startAction != nil, let first = items.first, let opening = spec.startRequests.first,
            opening.matches(method: first.entry.request.method, path: first.path)
        {
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
    private func stepGroups(_ items: [Item], summary: inout Summary) -> [[Int]] {
        var groups: [[Int]] = []
        var groupEnd = Date.distantPast
        for (position, item) in items.enumerated() where item.role == .step {
            // A recorder that counted requests in flight says for sure; otherwise times overlap.
            var overlaps = item.entry.inFlight.map { $0 > 0 } ?? (item.entry.started < groupEnd)
            // A step holds at most as many concurrent calls as the loader takes: more are split.
            if overlaps, let last = groups.last, last.count >= Self.maximumConcurrent {
                if last.count == Self.maximumConcurrent { summary.splitGroups += 1 }
                overlaps = false
            }
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
        var optional = false
        /// The entry it was made from, for issues.
        var entry: Int
    }

    private func buildExchanges(_ items: inout [Item], groups: [[Int]], summary: inout Summary) -> [DraftExchange] {
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
            var object: JSONObject = ["id": .string(draft.id), "request": requestMatcher(item, summary: &summary)]
            if let response = item.entry.response {
                object["response"] = responseDocument(response, summary: &summary)
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
            return DraftExchange(
                id: draft.id, times: draft.times, document: .object(object), optional: item.role == .redirect, entry: item.index)
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

    private func requestMatcher(_ item: Item, summary: inout Summary) -> JSONValue {
        var matcher: JSONObject = ["method": .string(item.entry.request.method), "path": .string(decodedPath(item.path))]
        if !item.query.isEmpty { matcher["query"] = queryObject(item.query) }
        if let authorization = item.entry.request.headers.first(named: "Authorization") {
            matcher["headers"] = ["Authorization": .string(authorization)]
        }
        if let body = item.entry.request.body, !body.isEmpty {
            if let json = JSONValue.parse(Data(body.utf8)) {
                if json.depth <= Self.maximumBodyDepth {
                    matcher["json"] = json
                } else {
                    summary.deepBodiesAsText += 1
                    matcher["text"] = .string(body)
                }
            } else {
                matcher["text"] = .string(body)
            }
        }
        return .object(matcher)
    }

    private func responseDocument(_ response: HARLog.Response, summary: inout Summary) -> JSONValue {
        var object: JSONObject = ["status": .number(Double(response.status))]
        let headers = keptHeaders(response.headers)
        if !headers.isEmpty { object["headers"] = .object(JSONObject(headers.map { ($0.name, .string($0.value)) })) }
        if !response.body.isEmpty {
            let json = JSONValue.parse(response.body).flatMap { $0.objectValue != nil || $0.arrayValue != nil ? $0 : nil }
            if let json, json.depth > Self.maximumBodyDepth { summary.deepBodiesAsText += 1 }
            if let json, json.depth <= Self.maximumBodyDepth {
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

    private func buildSteps(
        _ items: [Item], groups: [[Int]], exchanges: [DraftExchange], requestAction: String, file: String, summary: inout Summary
    ) throws(Failure) -> (steps: [JSONValue], entries: [Int]) {
        var steps: [JSONValue] = []
        /// The entry each step was made from, for issues.
        var entries: [Int] = []
        var currentEntry = items.first?.index ?? 0
        func add(_ step: JSONValue) {
            steps.append(step)
            entries.append(currentEntry)
        }
        var clockEnd = items.first?.entry.started ?? Date(timeIntervalSince1970: 0)
        // How many requests each exchange has served so far, for the check after each step.
        var served = [Int](repeating: 0, count: exchanges.count)
        if let startAction = spec.startAction, items.first?.role == .start {
            add(["do": .string(startAction)])
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
                    add(["advance": .string(Self.durationText(milliseconds: gapMilliseconds))])
                }
            }
            var calls: [(action: String, arguments: JSONValue)] = []
            for position in group { calls.append(try call(items[position], action: requestAction, file: file, summary: &summary)) }
            let outcomes = group.map { outcome(items, for: $0) }
            if calls.count == 1 {
                var step: JSONObject = ["do": .string(calls[0].action), "with": calls[0].arguments]
                if let outcome = outcomes[0] { step["expect"] = outcome }
                add(.object(step))
            } else if Set(calls.map { $0.action + $0.arguments.compactText }).count == 1
                && Set(outcomes.map { $0?.compactText ?? "" }).count == 1
            {
                var step: JSONObject = [
                    "do": .string(calls[0].action), "with": calls[0].arguments, "parallel": .number(Double(calls.count)),
                ]
                if let outcome = outcomes[0] { step["expect"] = outcome }
                add(.object(step))
            } else {
                let members: [JSONValue] = zip(calls, outcomes).map { call, outcome in
                    var member: JSONObject = ["do": .string(call.action), "with": call.arguments]
                    if let outcome { member["expect"] = outcome }
                    return .object(member)
                }
                add(["group": .array(members)])
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
        return (steps, entries)
    }

    /// `{"check": {"requests": {"counts": ...}}}`: the exchanges a step's requests used have
    /// served as many requests as the trace shows by then.
    private func check(_ used: [Int], exchanges: [DraftExchange], served: inout [Int]) -> JSONValue {
        var counts = JSONObject()
        var seen = Set<Int>()
        for exchange in used where exchange >= 0 {
            served[exchange] += 1
            seen.insert(exchange)
        }
        for exchange in seen.sorted() where !exchanges[exchange].optional {
            counts.appendNew(exchanges[exchange].id, .number(Double(served[exchange])))
        }
        return ["check": ["requests": ["counts": .object(counts)]]]
    }

    /// The action a step item becomes, and its arguments. A dedicated action is claimed only
    /// when it sends this request as captured: a JSON body with each argument as a string;
    /// otherwise the entry is a plain request.
    private func call(_ item: Item, action: String, file: String, summary: inout Summary) throws(Failure) -> (
        action: String, arguments: JSONValue
    ) {
        let method = item.entry.request.method
        if let rule = spec.actionRules.first(where: { $0.route.matches(method: method, path: item.path) }) {
            let body = item.entry.request.body.flatMap { JSONValue.parse(Data($0.utf8)) }
            var arguments = JSONObject()
            var complete = rule.arguments.isEmpty || body?.objectValue != nil
            for (argument, member) in rule.arguments.sorted(by: { $0.key < $1.key }) {
                guard let value = body?[member], case .string = value else {
                    complete = false
                    break
                }
                arguments[argument] = value
            }
            if complete { return (rule.action, .object(arguments)) }
            summary.plainInsteadOfAction += 1
        }
        return (action, try requestArguments(item, file: file))
    }

    private func requestArguments(_ item: Item, file: String) throws(Failure) -> JSONValue {
        var arguments: JSONObject = [:]
        if item.entry.request.method != "GET" { arguments["method"] = .string(item.entry.request.method) }
        arguments["path"] = .string(decodedPath(item.path))
        if !item.query.isEmpty { arguments["query"] = queryObject(item.query) }
        if let body = item.entry.request.body, !body.isEmpty, let json = JSONValue.parse(Data(body.utf8)) {
            guard json.depth <= Self.maximumBodyDepth else {
                throw Failure(
                    file: file, entry: item.entry, index: item.index, at: ".request.postData.text",
                    "the request body nests \(json.depth) levels deep; a step's JSON argument may nest at most \(Self.maximumBodyDepth)",
                    hint: "leave this entry out of the export, or flatten its body")
            }
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

    /// The path as the stack writes it; kept percent-encoded where decoding would make it something
    /// a scenario path cannot be (a `?` or `#` inside it).
    private func decodedPath(_ path: String) -> String {
        guard let decoded = path.removingPercentEncoding, !decoded.contains("?"), !decoded.contains("#"), decoded.hasPrefix("/") else {
            return path
        }
        return decoded
    }

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

extension JSONValue {
    /// How deeply arrays and objects nest in it (a scalar is 0).
    var depth: Int {
        switch self {
        case .array(let elements): 1 + (elements.lazy.map(\.depth).max() ?? 0)
        case .object(let object): 1 + (object.lazy.map(\.value.depth).max() ?? 0)
        default: 0
        }
    }
}
