import Foundation
import ScenarioEngine

/// What the entries become: which are kept, what role each plays, which overlap, and which
/// exchange serves each.
extension TraceImporter {
    // MARK: Items

    /// One kept entry with what the importer worked out about it.
    struct Item {
        enum Role {
            case step, app, start, retry, redirect

            /// Whether the stack sends it by itself, within an action: the app's own requests
            /// (a refresh), retries and followed redirects.
            var isStacksOwn: Bool { self == .app || self == .retry || self == .redirect }
        }
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
            hostAndPort = host + (components.port.map { ":\($0)" } ?? "")
        }

        var host: String
        /// The host with the URL's port when it names one (`localhost:8080`), as proxies show it.
        var hostAndPort: String

        /// Method, path, query and body: what makes two requests the same call.
        var callKey: String {
            entry.request.method + " " + path + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&") + "\n"
                + (entry.request.body ?? "")
        }

        /// The call key plus the credential: what an exchange matches on.
        var matchKey: String { callKey + "\n" + (entry.request.headers.first(named: "Authorization") ?? "") }
    }

    func keeps(_ item: Item, summary: inout Summary) -> Bool {
        // `--host` names the host alone, or with the port as proxies show it (`localhost:8080`).
        if let host = options.host, item.host.caseInsensitiveCompare(host) != .orderedSame,
            item.hostAndPort.caseInsensitiveCompare(host) != .orderedSame
        {
            summary.droppedByHost += 1
            return false
        }
        if item.entry.request.method == "OPTIONS",
            item.entry.request.headers.first(named: "Access-Control-Request-Method") != nil
                || item.entry.response?.headers.first(named: "Access-Control-Allow-Methods") != nil
        {
            summary.droppedPreflights += 1
            return false
        }
        let mime = item.entry.response?.mimeType?.lowercased() ?? ""
        let type = item.entry.resourceType ?? ""
        // A browser's page load: the document it navigated to. An API answering HTML to a fetch is kept.
        let accept = item.entry.request.headers.first(named: "Accept")?.lowercased() ?? ""
        if type == "document"
            || (type.isEmpty && item.entry.request.method == "GET" && mime.hasPrefix("text/html")
                && SecretRedactor.bytes(of: accept, contain: "text/html"))
        {
            summary.droppedDocuments += 1
            return false
        }
        if options.keepStaticAssets { return true }
        var isStatic =
            Self.staticTypes.contains(type) || mime.hasPrefix("image/") || mime.hasPrefix("font/")
            || SecretRedactor.bytes(of: mime, contain: "css") || SecretRedactor.bytes(of: mime, contain: "javascript")
        if let dot = item.path.lastIndex(of: "."),
            Self.staticExtensions.contains(item.path[item.path.index(after: dot)...].lowercased())
        {
            isStatic = true
        }
        if isStatic { summary.droppedAssets += 1 }
        return !isStatic
    }

    private static let staticExtensions: Set<String> = [
        "js", "mjs", "css", "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "woff", "woff2", "ttf", "otf", "map",
    ]
    private static let staticTypes: Set<String> = ["image", "stylesheet", "script", "font", "media", "manifest", "texttrack"]

    func classify(_ items: inout [Item]) {
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
        // The last step or retry of each call, by call key: a repeat once its wait is over may be the stack's.
        var lastOfCall: [String: Int] = [:]
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
            defer { lastOfCall[item.callKey] = position }
            if let previous = lastOfCall[item.callKey], isStackRetry(item, after: items[previous]) {
                items[position].role = .retry
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

    /// Whether `item` is the stack sending `previous` again by itself (``TraceImportSpec/stackRetry``):
    /// `previous` was answered with a status it retries, and `item` went out by the time the wait
    /// ended, the answer's `Retry-After` (up to the stack's longest wait) or, without one, the
    /// stack's own backoff. One sent before the wait was over is the stack's too: a stack that
    /// does not sit the wait out is the bug a capture brings, and the user does not tap again
    /// while the request is still on its way. A repeat well after the wait, or after a wait the
    /// stack does not sit out, is the user's.
    func isStackRetry(_ item: Item, after previous: Item) -> Bool {
        guard let retry = spec.stackRetry, let answer = previous.entry.response, retry.statuses.contains(answer.status) else {
            return false
        }
        let gap = Duration.seconds(item.entry.started.timeIntervalSince(previous.entry.ended))
        // Captures keep milliseconds: a repeat that seems to come a hair early is on time.
        let rounding = Duration.milliseconds(2)
        guard let header = answer.headers.first(named: "Retry-After") else { return gap >= .zero - rounding && gap <= retry.longestWait }
        guard let wait = RetryAfterValue.wait(header, at: previous.entry.ended), wait <= retry.longestWait else { return false }
        // A real stack's timer fires a little late; a tenth of the wait (at least a second) is still that timer.
        let late = max(Duration.seconds(1), wait / 10)
        return gap >= .zero - rounding && gap <= wait + late
    }

    /// Step items in overlapping runs: each run is one step.
    func stepGroups(_ items: [Item], summary: inout Summary) -> [[Int]] {
        var groups: [[Int]] = []
        var groupEnd = Date.distantPast
        for (position, item) in items.enumerated() where item.role == .step {
            // Steps overlap when their times do. A recorder that counted requests in flight says
            // so of one that starts as the last ended (answers held until all were waiting take no
            // time), or that it was sent alone; what is in flight may be the app's own (a long
            // poll), so a step well after the last is its own however many are away.
            var overlaps =
                item.entry.inFlight.map { $0 > 0 && item.entry.started <= groupEnd } ?? (item.entry.started < groupEnd)
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

    /// One exchange of the draft: what it is called and which requests it serves; its document
    /// is made only when it is written.
    struct ExchangePlan {
        var id: String
        /// The position of the item it was made from.
        var first: Int
        var times: Int
        var after: String?
        /// The overlapping run it belongs to, when it is one of several.
        var group: Int?
        /// What the stack sends by itself (a refresh, a retry, a followed redirect): a run may use
        /// it fewer times than the capture did (a fixed stack refreshes once), so it is optional.
        var optional: Bool
        /// The entry it was made from, for issues.
        var entry: Int
    }

    /// The exchanges the items become: requests with the same match key and the same answer in
    /// a row are one exchange served `times` times; a different answer later is a new exchange
    /// `after` the last one.
    func planExchanges(_ items: inout [Item], groups: [[Int]]) -> [ExchangePlan] {
        var groupOf: [Int: Int] = [:]
        for (number, group) in groups.enumerated() where group.count > 1 {
            for position in group { groupOf[position] = number }
        }
        var plans: [ExchangePlan] = []
        var lastByKey: [String: Int] = [:]  // key → plan index
        var usedIDs: Set<String> = []
        var nextNumbers: [String: Int] = [:]
        for position in items.indices {
            let item = items[position]
            let key = item.matchKey
            let group = groupOf[position]
            if let planIndex = lastByKey[key], sameAnswer(items[plans[planIndex].first], item), plans[planIndex].group == group,
                items[plans[planIndex].first].role == item.role || (item.role != .step && items[plans[planIndex].first].role != .step)
            {
                plans[planIndex].times += 1
                items[position].exchange = planIndex
                continue
            }
            let id = uniqueID(for: item, used: &usedIDs, nextNumber: &nextNumbers)
            let after = lastByKey[key].map { plans[$0].id }
            plans.append(
                ExchangePlan(
                    id: id, first: position, times: 1, after: after, group: group, optional: item.role.isStacksOwn, entry: item.index))
            lastByKey[key] = plans.count - 1
            items[position].exchange = plans.count - 1
        }
        return plans
    }

    private func sameAnswer(_ first: Item, _ second: Item) -> Bool {
        guard let a = first.entry.response, let b = second.entry.response else {
            return first.entry.response == nil && second.entry.response == nil
        }
        return a.status == b.status && a.body == b.body && keptHeaders(a.headers) == keptHeaders(b.headers)
    }

    private func uniqueID(for item: Item, used: inout Set<String>, nextNumber: inout [String: Int]) -> String {
        let slug = Self.slug(of: item.path)
        let status = item.entry.response.map { String($0.status) } ?? "fault"
        let base = "\(item.entry.request.method.lowercased())-\(slug.isEmpty ? "root" : slug)-\(status)"
        var id = base
        // Counting on from the last number given to this base keeps long traces linear.
        var number = nextNumber[base, default: 2]
        while !used.insert(id).inserted {
            id = "\(base)-\(number)"
            number += 1
        }
        // A base met once keeps no entry: the default says where it would count on from.
        if number != 2 || nextNumber[base] != nil { nextNumber[base] = number }
        return id
    }

    /// The path's segments, lower case, with what is neither letter nor digit as `-`, joined by `-`.
    static func slug(of path: String) -> String {
        guard path.utf8.allSatisfy({ $0 < 0x80 }) else {
            return path.split(separator: "/").map { part in
                String(part.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
            }.joined(separator: "-")
        }
        // ASCII, the usual case: byte by byte, as the rule above gives it.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for part in path.utf8.split(separator: UInt8(ascii: "/")) {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: "-")) }
            for byte in part {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
                default: bytes.append(UInt8(ascii: "-"))
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Response fields that shape behaviour; transport bookkeeping is left out.
    /// The answer headers a scenario keeps. Its headers are an object: the values of a repeated
    /// name are joined with `, ` as HTTP allows, except `Set-Cookie`'s, which cannot be joined,
    /// so the first is kept (counted in `repeatedSetCookies`).
    func keptHeaders(_ fields: [HARLog.Field], repeatedSetCookies: inout Int) -> [HARLog.Field] {
        var kept: [HARLog.Field] = []
        var positions: [String: Int] = [:]
        for field in fields {
            let name = field.name.lowercased()
            guard !Self.droppedHeaders.contains(name) else { continue }
            guard let position = positions[name] else {
                positions[name] = kept.count
                kept.append(field)
                continue
            }
            if name == "set-cookie" {
                repeatedSetCookies += 1
            } else {
                kept[position].value += ", " + field.value
            }
        }
        return kept
    }

    /// ``keptHeaders(_:repeatedSetCookies:)`` where nothing is counted.
    func keptHeaders(_ fields: [HARLog.Field]) -> [HARLog.Field] {
        var uncounted = 0
        return keptHeaders(fields, repeatedSetCookies: &uncounted)
    }

    private static let droppedHeaders: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "date", "server", "content-encoding", "vary",
    ]
}
