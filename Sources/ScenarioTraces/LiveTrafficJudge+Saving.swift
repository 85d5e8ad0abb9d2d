import Foundation
import ScenarioEngine

/// Writing the trace of a broken rule: the window's finished exchanges as a redacted HAR, named by
/// the invariant and the time, the rule and the requests involved in its `comment`.
extension LiveTrafficJudge {
    /// Writes `trace` and tells the app on the main actor; a trace that cannot be written is
    /// still told, without a file.
    func save(_ trace: Pending) {
        // The finished exchanges, and those involved still in flight (saved without an answer).
        let included = window.kept.filter { $0.finished || trace.ids.contains($0.id) }
        let numbers = Dictionary(uniqueKeysWithValues: included.enumerated().map { ($0.element.id, $0.offset + 1) })
        let involved = Set(trace.ids.compactMap { numbers[$0] })
        // Judged again over the trace as saved, so `#n` in the message is the trace's own nth request.
        let record = window.record { $0.finished || trace.ids.contains($0.id) }
        let again = InvariantChecker.check([trace.invariant], record).first { !involved.isDisjoint(with: $0.requests) }
        let violation = again ?? trace.violation
        let shown = again.map(\.requests) ?? involved.sorted()

        var log = HARLog(creator: URLSessionRecorder.creator, entries: included.map(\.entry))
        log.comment = violation.message
        // A value a message quotes (a refresh token) is a secret wherever it stands.
        _ = TraceRedactor(extraKeys: [String](), known: violation.quoted.map { RedactionPolicy.Finding($0, .token) }).redact(&log)
        let message = log.comment ?? violation.message
        let requests = Array(Set(shown)).sorted().compactMap { number -> BrokenInvariant.Request? in
            guard number >= 1, number <= log.entries.count else { return nil }
            let entry = log.entries[number - 1]
            return BrokenInvariant.Request(
                method: entry.request.method, url: entry.request.url, status: entry.response?.status, sent: entry.started,
                entry: number - 1)
        }
        log.comment = comment(trace.invariant, message: message, requests: requests, saved: log.entries.count)

        let file = write(log, named: trace.invariant.id, at: trace.date)
        let broken = BrokenInvariant(
            invariant: trace.invariant.id, description: trace.invariant.description, message: message, requests: requests, file: file,
            date: trace.date)
        let onBreak = onBreak
        Task { @MainActor in onBreak(broken) }
    }

    private func comment(_ invariant: Invariant, message: String, requests: [BrokenInvariant.Request], saved: Int) -> String {
        var lines = [
            "URLSessionRecorder saved this trace because the invariant '\(invariant.id)' broke: \(message)",
            "The rule (\(rulesFile), line \(invariant.location.line)): \(invariant.description)",
            "Requests involved (#n is the nth entry): "
                + requests.map { "#\(($0.entry ?? 0) + 1) \($0.method) \($0.url) → \($0.status.map(String.init) ?? "no answer")" }
                .joined(separator: "; "),
            "The trace holds the last \(saved) finished exchanges the recorder judged (it keeps at most \(settings.judgedExchanges)); times are the device's clock.",
        ]
        if !notJudged.isEmpty {
            lines.append("Not judged from traffic: " + notJudged.map { "\($0.id) (\($0.reason))" }.joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    /// Writes `log` as `ID-YYYYMMDDTHHMMSSZ.har` (`-2`, `-3`... when taken) in the folder, after
    /// removing the oldest traces this recorder wrote there beyond ``URLSessionRecorder/WatchSettings/tracesKept``.
    private func write(_ log: HARLog, named id: String, at date: Date) -> URL? {
        makeRoom()
        let stem = Self.safeName(id) + "-" + Self.stamp(date)
        // After the newest copy of the same name and second, even when an older copy made room: names never come back.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let copies = names.filter { $0 == stem + ".har" || $0.hasPrefix(stem + "-") }.compactMap { Self.writtenName($0)?.copy }
        var copy = (copies.max() ?? 0) + 1
        var file = folder.appendingPathComponent(copy == 1 ? stem + ".har" : "\(stem)-\(copy).har")
        while FileManager.default.fileExists(atPath: file.path) {
            copy += 1
            file = folder.appendingPathComponent("\(stem)-\(copy).har")
        }
        do {
            let output = try ReportOutput(path: file.path)
            log.writeHAR(to: output.append)
            try output.commit()
            return file
        } catch {
            return nil
        }
    }

    /// Removes the oldest traces this recorder wrote in the folder (by the time in their names)
    /// until one more fits under ``URLSessionRecorder/WatchSettings/tracesKept``; other files are left alone.
    private func makeRoom() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let ours = names.compactMap { name in Self.writtenName(name).map { (stamp: $0.stamp, copy: $0.copy, name: name) } }
            .sorted { ($0.stamp, $0.copy, $0.name) < ($1.stamp, $1.copy, $1.name) }
        for old in ours.prefix(max(0, ours.count - settings.tracesKept + 1)) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(old.name))
        }
    }

    /// The id as a file name: letters, digits, `.`, `_` and `-`, at most 100 characters.
    static func safeName(_ id: String) -> String {
        let kept = id.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "-"
        }
        let name = String(kept.prefix(100))
        return name.isEmpty || name.hasPrefix(".") ? "invariant" + name : name
    }

    /// `20250314T093005Z`: UTC, so names sort by time.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", parts.year ?? 0) + two(parts.month) + two(parts.day) + "T" + two(parts.hour) + two(parts.minute)
            + two(parts.second) + "Z"
    }

    /// The stamp and copy number (1 for the first) of a trace this recorder wrote (`ID-STAMP.har`
    /// or `ID-STAMP-N.har`), or `nil` for any other file.
    static func writtenName(_ name: String) -> (stamp: String, copy: Int)? {
        guard name.hasSuffix(".har") else { return nil }
        var parts = name.dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        var copy = 1
        if let last = parts.last, !last.isEmpty, last.count < 8, let number = Int(last) {
            copy = number
            parts.removeLast()
        }
        let isStamp = { (stamp: Substring) in
            stamp.count == 16
                && stamp.utf8.enumerated().allSatisfy { index, byte in
                    switch index {
                    case 8: byte == UInt8(ascii: "T")
                    case 15: byte == UInt8(ascii: "Z")
                    default: byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                    }
                }
        }
        guard parts.count >= 2, let stamp = parts.last, isStamp(stamp) else { return nil }
        return (String(stamp), copy)
    }
}
