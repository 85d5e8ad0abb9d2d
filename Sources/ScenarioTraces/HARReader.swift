import Foundation
import ScenarioEngine

/// Reads HAR 1.2 leniently, because exporters differ: optional fields may be missing, timings may
/// be `-1`, bodies may be base64, custom fields start with `_`, entries may lack a `response` and
/// files may have no `pages`. What cannot be read at all is a ``LoadIssue`` with file, line,
/// column and JSON path, never a crash.
package struct HARReader: Sendable {
    /// The largest file read (bigger captures should be cut with the exporting tool first).
    package static let maximumBytes = 256 * 1024 * 1024
    /// The most entries one file may hold.
    package static let maximumEntries = 200_000

    /// The file name used in issue locations.
    package let file: String
    /// The size bound this reader applies.
    package let maximumBytes: Int
    /// The entry bound this reader applies.
    package let maximumEntries: Int

    /// Creates a reader naming `file` in issues, with the default bounds unless told otherwise.
    package init(file: String, maximumBytes: Int = HARReader.maximumBytes, maximumEntries: Int = HARReader.maximumEntries) {
        self.file = file
        self.maximumBytes = maximumBytes
        self.maximumEntries = maximumEntries
    }

    /// Parses a HAR document.
    /// - Throws: a ``LoadIssue`` for text that is not JSON, too big, too deep, or not shaped like HAR.
    package func read(_ data: Data) throws(LoadIssue) -> HARLog {
        try read(bytes: [UInt8](data))
    }

    /// Parses a HAR document given as bytes (a caller that reads the file itself then holds
    /// it once). Entries are read one at a time as the parser reaches them, so a capture is never
    /// held as one JSON tree, and the entry bound stops the read as soon as it is passed.
    /// - Throws: a ``LoadIssue`` for text that is not JSON, too big, too deep, or not shaped like HAR.
    package func read(bytes: [UInt8]) throws(LoadIssue) -> HARLog {
        guard bytes.count <= maximumBytes else {
            throw issue(
                nil, at: JSONPath.root,
                "the file has \(bytes.count) bytes, more than the \(maximumBytes) a trace may have",
                hint: "export only the requests of the bug (filter by host or time in the capturing tool)")
        }
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw issue(nil, at: JSONPath.root, "the file is empty", hint: "export the capture again as HAR")
        }
        let logPath = JSONPath.appending(JSONPath.root, key: "log")
        let entriesPath = JSONPath.appending(logPath, key: "entries")
        let collector = EntryCollector()
        let dates = DateReader()
        let pool = StringPool()
        let maximumEntries = self.maximumEntries
        let root = try JSONTextParser.parse(bytes: bytes, file: file, streaming: ["log", "entries"]) {
            [self] node, index throws(LoadIssue) in
            guard index < maximumEntries else {
                throw issue(
                    node, at: JSONPath.appending(entriesPath, index: index),
                    "more than the \(maximumEntries) entries a trace may have",
                    hint: "export only the requests of the bug (filter by host or time in the capturing tool)")
            }
            var entry = try readEntry(
                node, at: JSONPath.appending(entriesPath, index: index), dates: dates, pool: pool, collector: collector,
                fallbackStart: collector.entries.last?.started ?? Date(timeIntervalSince1970: 0))
            entry.line = node.line
            entry.column = node.column
            collector.entries.append(entry)
        }
        let log = try member("log", of: root, at: JSONPath.root, as: "an object")
        guard log.members != nil else { throw typeIssue(log, at: logPath, expected: "an object") }
        let creator = log["creator"]?["name"]?.value.stringValue ?? ""
        let entriesNode = try member("entries", of: log, at: logPath, as: "an array")
        guard entriesNode.elements != nil else { throw typeIssue(entriesNode, at: entriesPath, expected: "an array of entries") }
        var entries = collector.entries
        collector.entries = []
        // Corrected times are written back as any tool's: the log no longer says requests-har,
        // or reading what `redact` wrote would correct them twice.
        let corrected = Self.correctQuirks(of: creator, in: &entries)
        var read = HARLog(creator: corrected ? "SessionScenarios (from \(creator))" : creator, entries: entries)
        read.attachedBodiesNotFound = collector.attachedBodiesNotFound
        return read
    }

    /// Exporters known to write timing fields their own way.
    ///
    /// - `requests-har` (Python's requests) writes `time` and `timings` in seconds and
    ///   `startedDateTime` when the response arrived: times become milliseconds and each start
    ///   moves back by its time, so concurrent requests overlap again.
    /// Returns whether it corrected anything.
    @discardableResult
    static func correctQuirks(of creator: String, in entries: inout [HARLog.Entry]) -> Bool {
        guard creator == "requests-har" else { return false }
        for index in entries.indices {
            let seconds = entries[index].time
            entries[index].time = min(seconds * 1000, 86_400_000)
            entries[index].started = entries[index].started.addingTimeInterval(-min(seconds, 86_400))
        }
        return true
    }

    /// A body Playwright keeps in a file of its own (`_file`, its attach mode: `.zip` captures),
    /// read from beside the capture once unzipped. Only a plain name of a regular file is taken,
    /// never a path or a link (a hostile capture must not pull in a file from elsewhere), and all
    /// of them together within the trace's byte bound; one not there is counted.
    private func attachedBody(_ node: JSONNode, collector: EntryCollector) -> Data? {
        guard let name = node["_file"]?.value.stringValue else { return nil }
        let folder = (file as NSString).deletingLastPathComponent
        let path = folder.isEmpty ? name : folder + "/" + name
        let left = maximumBytes - collector.attachedBytes
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\"), !name.hasPrefix("."), left > 0,
            (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil,
            let bytes = try? FileBytes.read(path, limit: left)
        else {
            collector.attachedBodiesNotFound += 1
            return nil
        }
        collector.attachedBytes += bytes.count
        return Data(bytes)
    }

    private func readEntry(
        _ node: JSONNode, at path: String, dates: DateReader, pool: StringPool, collector: EntryCollector, fallbackStart: Date
    ) throws(LoadIssue) -> HARLog.Entry {
        guard node.members != nil else { throw typeIssue(node, at: path, expected: "an entry object") }
        let requestNode = try member("request", of: node, at: path, as: "an object")
        let request = try readRequest(requestNode, at: JSONPath.appending(path, key: "request"), pool: pool, collector: collector)
        var response: HARLog.Response?
        if let responseNode = node["response"], !responseNode.value.isNull {
            response = try readResponse(responseNode, at: JSONPath.appending(path, key: "response"), pool: pool, collector: collector)
        }
        // A missing or unreadable start keeps the previous entry's, so order survives.
        let started = node["startedDateTime"]?.value.stringValue.flatMap(dates.date(from:)) ?? fallbackStart
        var time = nonNegative(node["time"]?.value.numberValue)
        if let timings = node["timings"]?.value.objectValue {
            let sum = ["blocked", "dns", "connect", "send", "wait", "receive"].reduce(0) { $0 + nonNegative(timings[$1]?.numberValue) }
            // A `time` a thousandth of its timings was written in seconds, the timings in milliseconds.
            if time == 0 || (sum >= 10 && abs(time * 1000 - sum) <= sum * 0.05) { time = min(sum, 86_400_000) }
        }
        let inFlight = node["_inFlight"]?.value.intValue.flatMap { $0 >= 0 ? $0 : nil }
        var entry = HARLog.Entry(started: started, time: time, request: request, response: response, inFlight: inFlight)
        entry.resourceType = node["_resourceType"]?.value.stringValue.map { pool.intern($0.lowercased()) }
        return entry
    }

    private func readRequest(_ node: JSONNode, at path: String, pool: StringPool, collector: EntryCollector) throws(LoadIssue)
        -> HARLog.Request
    {
        guard node.members != nil else { throw typeIssue(node, at: path, expected: "an object") }
        let method = pool.intern(try string("method", of: node, at: path).uppercased())
        let url = try string("url", of: node, at: path)
        let headers = try fields("headers", of: node, at: path, pool: pool)
        var body: String?
        var mimeType: String?
        if let postData = node["postData"], postData.members != nil {
            mimeType = postData["mimeType"]?.value.stringValue.map(pool.intern)
            let params = postData["params"]?.value.arrayValue ?? []
            let text = postData["text"]?.value.stringValue
            if let text, !text.isEmpty {
                body = text
            } else if let attached = attachedBody(postData, collector: collector) {
                body = String(decoding: attached, as: UTF8.self)
            } else if !params.isEmpty {
                // Form bodies exported as parameters only (ZAP: beside an empty `text`): put the form back together.
                body = params.compactMap { param -> String? in
                    guard let name = param["name"]?.stringValue else { return nil }
                    return formEscape(name) + "=" + formEscape(param["value"]?.stringValue ?? "")
                }.joined(separator: "&")
            } else {
                body = text
            }
        }
        return HARLog.Request(method: method, url: url, headers: headers, body: body, mimeType: mimeType)
    }

    private func readResponse(_ node: JSONNode, at path: String, pool: StringPool, collector: EntryCollector) throws(LoadIssue)
        -> HARLog.Response?
    {
        guard node.members != nil else { throw typeIssue(node, at: path, expected: "an object") }
        guard let statusNode = node["status"] else { return nil }
        guard let status = statusNode.value.intValue else {
            throw typeIssue(statusNode, at: JSONPath.appending(path, key: "status"), expected: "an integer status")
        }
        // Browsers write status 0 for requests that got no answer.
        guard (100...599).contains(status) else { return nil }
        let headers = try fields("headers", of: node, at: path, pool: pool)
        var body = Data()
        var mimeType: String?
        if let content = node["content"], content.members != nil {
            mimeType = content["mimeType"]?.value.stringValue.map(pool.intern)
            if let text = content["text"]?.value.stringValue {
                if content["encoding"]?.value.stringValue?.lowercased() == "base64" {
                    guard let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                        throw issue(
                            content["text"], at: JSONPath.appending(JSONPath.appending(path, key: "content"), key: "text"),
                            "the body says it is base64 but is not", hint: "remove 'encoding' or export the capture again")
                    }
                    body = decoded
                } else {
                    body = Self.textBody(text, mimeType: mimeType)
                }
            } else if let attached = attachedBody(content, collector: collector) {
                body = attached
            }
        }
        return HARLog.Response(status: status, headers: headers, body: body, mimeType: mimeType)
    }

    private func fields(_ key: String, of node: JSONNode, at path: String, pool: StringPool) throws(LoadIssue) -> [HARLog.Field] {
        guard let list = node[key], !list.value.isNull else { return [] }
        let listPath = JSONPath.appending(path, key: key)
        guard let elements = list.elements else { throw typeIssue(list, at: listPath, expected: "an array of {name, value}") }
        var result: [HARLog.Field] = []
        for (index, element) in elements.enumerated() {
            let elementPath = JSONPath.appending(listPath, index: index)
            guard element.members != nil else { throw typeIssue(element, at: elementPath, expected: "an object {name, value}") }
            let name = try string("name", of: element, at: elementPath)
            // HTTP/2 pseudo-headers (`:authority`) are no header fields a client sets.
            guard !name.hasPrefix(":") else { continue }
            let value = element["value"]?.value.stringValue ?? element["value"]?.value.compactText ?? ""
            result.append(HARLog.Field(pool.intern(name), pool.intern(value)))
        }
        return result
    }

    private func member(_ key: String, of node: JSONNode, at path: String, as expected: String) throws(LoadIssue) -> JSONNode {
        guard let found = node[key] else {
            throw issue(node, at: path, "missing '\(key)' (\(expected))", hint: "is this a HAR 1.2 file? export the capture again as HAR")
        }
        return found
    }

    private func string(_ key: String, of node: JSONNode, at path: String) throws(LoadIssue) -> String {
        let found = try member(key, of: node, at: path, as: "a string")
        guard let text = found.value.stringValue else {
            throw typeIssue(found, at: JSONPath.appending(path, key: key), expected: "a string")
        }
        return text
    }

    private func typeIssue(_ node: JSONNode, at path: String, expected: String) -> LoadIssue {
        issue(node, at: path, "expected \(expected), found \(node.value.typeDescription)", hint: "HAR 1.2 writes \(expected) here")
    }

    private func issue(_ node: JSONNode?, at path: String, _ message: String, hint: String? = nil) -> LoadIssue {
        LoadIssue(
            location: ScenarioLocation(file: file, line: node?.line ?? 1, column: node?.column ?? 1, path: path), message: message,
            hint: hint)
    }

    private func nonNegative(_ number: Double?) -> Double {
        guard let number, number.isFinite, number > 0 else { return 0 }
        // A day of milliseconds at most: a broken timing must not become years of virtual time.
        return min(number, 86_400_000)
    }

    private func formEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension DateReader {
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`, what nearly every exporter writes, read
    /// without a formatter (formatters cost tens of microseconds an instant); `nil` for anything else.
    static func fast(_ text: String) -> Date? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Date? in
            func number(_ from: Int, _ count: Int) -> Int? {
                guard from + count <= bytes.count else { return nil }
                var value = 0
                for index in from..<(from + count) {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74 || bytes[10] == 0x20,
                bytes[13] == 0x3A, bytes[16] == 0x3A,
                let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                let minute = number(14, 2), let second = number(17, 2),
                (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
            else { return nil }
            var index = 19
            var fraction = 0.0
            if index < bytes.count, bytes[index] == 0x2E {
                index += 1
                let start = index
                var micro = 0
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    // Microseconds are kept; further digits are read and dropped.
                    if index - start < 6 { micro = micro * 10 + Int(bytes[index] - 48) }
                    index += 1
                }
                guard index > start else { return nil }
                for _ in min(index - start, 6)..<6 { micro *= 10 }
                fraction = Double(micro) / 1_000_000
            }
            guard index < bytes.count else { return nil }
            var offset = 0
            switch bytes[index] {
            case 0x5A, 0x7A:  // Z
                index += 1
            case 0x2B, 0x2D:  // + -
                let sign = bytes[index] == 0x2D ? -1 : 1
                guard let hours = number(index + 1, 2) else { return nil }
                var next = index + 3
                if next < bytes.count, bytes[next] == 0x3A { next += 1 }
                guard let minutes = number(next, 2), hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
                index = next + 2
            default:
                return nil
            }
            guard index == bytes.count else { return nil }
            // Days from 1970-01-01 in the proleptic Gregorian calendar.
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
            return Date(timeIntervalSince1970: Double(seconds) + fraction)
        } ?? nil
    }
}

/// The entries read so far, kept outside the parser's callback.
private final class EntryCollector {
    var entries: [HARLog.Entry] = []
    /// Bodies the capture keeps in files of their own (`_file`) that are not beside it.
    var attachedBodiesNotFound = 0
    /// The bytes of those read so far: together they stay within the trace's bound.
    var attachedBytes = 0
}

/// One copy of each short text that repeats from entry to entry (header names and values,
/// MIME types, methods): a long capture then holds each once, not once per entry.
private final class StringPool {
    private var pool = BoundedMemo<String, String>()

    func intern(_ text: String) -> String {
        // Up to 15 bytes a String holds its text itself.
        guard text.utf8.count > 15 else { return text }
        return pool.value(for: text) { text }
    }
}

/// ISO 8601 dates as exporters write them: with or without fractional seconds.
private struct DateReader {
    private let withFraction: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    private let plain = ISO8601DateFormatter()

    /// Instants a scenario's `given.clock.start` can hold (``Scenario/clockStartRange``).
    func date(from text: String) -> Date? {
        guard let date = parsed(text), Scenario.clockStartRange.contains(date.timeIntervalSince1970) else { return nil }
        return date
    }

    private func parsed(_ text: String) -> Date? {
        if let date = Self.fast(text) { return date }
        if let date = withFraction.date(from: text) ?? plain.date(from: text) { return date }
        // Some formatters take at most three fraction digits; mitmproxy writes six.
        guard let dot = text.firstIndex(of: "."), text.count < 64 else { return nil }
        let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        guard digits.count > 3 else { return nil }
        let trimmed = String(text[...dot]) + digits.prefix(3) + text[digits.endIndex...]
        return withFraction.date(from: trimmed)
    }
}
