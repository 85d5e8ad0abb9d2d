import Foundation
import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records what an app's own `URLSession` sends and receives, for a debug build to attach to a
/// bug report as HAR that `scenario import` turns into a scenario.
///
/// One line adds it to the configuration the app builds its session from:
///
/// ```swift
/// #if DEBUG
///     URLSessionRecorder.shared.install(in: configuration)
/// #endif
/// let session = URLSession(configuration: configuration)
/// ```
///
/// Each request still goes to the network, through a session of the recorder's own made from a
/// copy of the configuration as it was when the recorder was installed. The recorder keeps the
/// last ``capacity`` finished exchanges, at most ``maximumBodySize`` bytes of each body and
/// ``maximumStoredBytes`` of bodies in all, dropping the oldest first; ``log(redacted:)`` and
/// ``writeHAR(to:redacted:)`` give them with secrets redacted as `scenario redact` does.
/// ``watch(invariantsAt:savingTracesIn:settings:onBreak:)`` also judges the traffic against the
/// team's `invariants.json` and saves a redacted trace by itself when a rule breaks.
public final class URLSessionRecorder: @unchecked Sendable {
    /// The recorder of the process, for the one line in an app's session setup.
    public static let shared = URLSessionRecorder()

    /// The name written as the HAR's creator: not the one `scenario export` writes, so import
    /// reads the recorder's wall-clock gaps as a capture's (shorter than 500 ms is noise).
    static let creator = "SessionScenarios URLSessionRecorder"

    /// Exchanges kept, finished or in flight; older ones are dropped.
    package let capacity: Int
    /// Bytes kept of each request and response body; the rest still reaches the app, unrecorded.
    package let maximumBodySize: Int
    /// Bytes of bodies kept in all; the oldest exchanges are dropped to stay under it.
    package let maximumStoredBytes: Int

    // Guards everything below; never held while URLSession or the app is called.
    private let lock = NSLock()
    /// Oldest first; the live ones start at `head` (dropped ones are removed in batches).
    private var records: [Record] = []
    private var head = 0
    private var nextID = 0
    private var storedBytes = 0
    private var inFlight = 0
    /// Judges the traffic against invariants while a watch lasts (``watch(invariantsAt:savingTracesIn:settings:onBreak:)``).
    private var judge: LiveTrafficJudge?

    private struct Record {
        let id: Int
        var entry: HARLog.Entry
        var bytes: Int
        var finished = false
    }

    /// Creates a recorder; every bound is at least 1.
    public init(capacity: Int = 1_000, maximumBodySize: Int = 1 << 20, maximumStoredBytes: Int = 32 << 20) {
        self.capacity = max(1, capacity)
        self.maximumBodySize = max(1, maximumBodySize)
        self.maximumStoredBytes = max(1, maximumStoredBytes)
    }

    /// Makes every session built from `configuration` from now on record into this recorder.
    ///
    /// Call it after the rest of the configuration is set: the recorder's own session is a copy
    /// of it as it is now. Installing twice, or another recorder after this one, replaces it.
    public func install(in configuration: URLSessionConfiguration) {
        RecordingURLProtocol.install(self, in: configuration)
    }

    /// The finished exchanges, oldest first, redacted unless `redacted` is false. Requests
    /// still in flight are left out.
    public func log(redacted: Bool = true) -> HARLog {
        let entries = lock.withLock { records[head...].filter(\.finished).map(\.entry) }
        let log = HARLog(creator: Self.creator, entries: entries)
        return redacted ? TraceRedactor().redact(log).log : log
    }

    /// Writes ``log(redacted:)`` to `file` as HAR 1.2, the file `scenario import` reads; the
    /// file takes its name only once it is whole.
    public func writeHAR(to file: URL, redacted: Bool = true) throws {
        // A piece at a time, as `scenario export` writes: the log is never also held as one text.
        let output = try ReportOutput(path: file.path)
        log(redacted: redacted).writeHAR(to: output.append)
        try output.commit()
    }

    /// Forgets everything recorded; requests in flight are still recorded when they finish.
    public func removeAll() {
        lock.withLock {
            let live = records[head...].filter { !$0.finished }
            records = Array(live)
            head = 0
            storedBytes = live.reduce(0) { $0 + $1.bytes }
        }
    }

    /// Starts (or, with `nil`, stops) judging the traffic from the next event on.
    func setJudge(_ judge: LiveTrafficJudge?) {
        lock.withLock { self.judge = judge }
    }

    /// The judge of the watch under way, if any.
    var currentJudge: LiveTrafficJudge? { lock.withLock { judge } }

    // MARK: Recording, for RecordingURLProtocol

    /// Records a request sent at `started`, its body already cut to ``maximumBodySize`` bytes
    /// (as `RecordingTap.harRequest` does); returns its id for ``finish(_:response:at:)``.
    package func begin(_ request: HARLog.Request, at started: Date) -> Int {
        let bytes = request.body?.utf8.count ?? 0
        return lock.withLock {
            let id = nextID
            nextID += 1
            records.append(
                Record(
                    id: id, entry: HARLog.Entry(started: started, time: 0, request: request, response: nil, inFlight: inFlight),
                    bytes: bytes))
            inFlight += 1
            storedBytes += bytes
            // Handed over under the lock, so the judge sees events in the order recorded; it only queues them.
            judge?.sent(id, records[records.count - 1].entry)
            while records.count - head > capacity { dropOldest() }
            return id
        }
    }

    /// Records how the request `id` ended: its response, or `nil` when it failed or was
    /// cancelled. The body is already cut to ``maximumBodySize`` bytes (as `RecordedLoad`
    /// receives it, so a large download is never held whole).
    package func finish(_ id: Int, response: HARLog.Response?, at ended: Date) {
        lock.withLock {
            inFlight -= 1
            judge?.finished(id, response, at: ended)
            guard let index = index(of: id) else { return }  // dropped while in flight
            records[index].entry.time = max(0, ended.timeIntervalSince(records[index].entry.started) * 1000)
            records[index].entry.response = response
            records[index].finished = true
            let bytes = response?.body.count ?? 0
            records[index].bytes += bytes
            storedBytes += bytes
            while storedBytes > maximumStoredBytes, records.count - head > 1 { dropOldest() }
        }
    }

    /// Where the live record `id` is (records are in id order); the caller holds the lock.
    private func index(of id: Int) -> Int? {
        var low = head
        var high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < records.count && records[low].id == id ? low : nil
    }

    /// Drops the oldest live record; the caller holds the lock.
    private func dropOldest() {
        storedBytes -= records[head].bytes
        head += 1
        // Removing in batches keeps dropping cheap without letting dropped records pile up.
        if head >= 64, head * 2 >= records.count {
            records.removeFirst(head)
            head = 0
        }
    }
}
