import Foundation
import HTTPCore
import ScenarioEngine

/// Wraps any ``HTTPTransport`` and records everything that passes through it as HAR 1.2, so a
/// debug build can attach a trace to a bug report (secrets redacted by default, exactly as
/// `scenario redact` does) and `scenario export` can turn a run into a trace.
///
/// Entries are kept in the order requests were sent; each gets its response (or none, when
/// the wrapped transport threw) when it completes.
public final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    /// Entries recorded before the oldest is dropped, so a long-lived app cannot grow without bound.
    package let capacity: Int
    private let base: any HTTPTransport
    private let baseURL: URL
    private let now: @Sendable () -> Date
    // Guards `entries` and `dropped`; never held across an await.
    private let lock = NSLock()
    private var entries: [HARLog.Entry?] = []
    private var dropped = 0
    private var inFlight = 0

    /// Creates a recorder around `transport`; requests are written as URLs under `baseURL`
    /// and timed with `now` (pass the virtual clock's date in scenarios).
    public init(
        wrapping transport: any HTTPTransport, baseURL: URL, capacity: Int = 10_000, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.base = transport
        self.baseURL = baseURL
        self.capacity = max(1, capacity)
        self.now = now
    }

    /// Sends through the wrapped transport and records the exchange.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let started = now()
        let harRequest = HARLog.Request(
            method: request.method.rawValue, url: Self.url(for: request, base: baseURL),
            headers: request.headers.map { HARLog.Field($0.name, $0.value) },
            body: request.body.map { String(decoding: $0, as: UTF8.self) }, mimeType: request.headers["Content-Type"])
        let slot = reserve(HARLog.Entry(started: started, time: 0, request: harRequest, response: nil))
        do {
            let response = try await base.send(request)
            complete(slot, started: started) { entry in
                entry.response = HARLog.Response(
                    status: response.status.code, headers: response.headers.map { HARLog.Field($0.name, $0.value) }, body: response.body,
                    mimeType: response.headers["Content-Type"])
            }
            return response
        } catch {
            complete(slot, started: started) { _ in }
            throw error
        }
    }

    /// What was recorded so far, redacted unless `redacted` is false.
    public func log(redacted: Bool = true) -> HARLog {
        let recorded = lock.withLock { entries.compactMap { $0 } }
        let log = HARLog(creator: "SessionScenarios", entries: recorded)
        return redacted ? TraceRedactor().redact(log).log : log
    }

    private func reserve(_ entry: HARLog.Entry) -> Int {
        lock.withLock {
            var entry = entry
            entry.inFlight = inFlight
            inFlight += 1
            if entries.count - dropped >= capacity {
                entries[dropped] = nil
                dropped += 1
            }
            entries.append(entry)
            return entries.count - 1
        }
    }

    private func complete(_ slot: Int, started: Date, _ update: (inout HARLog.Entry) -> Void) {
        let elapsed = now().timeIntervalSince(started) * 1000
        lock.withLock {
            inFlight -= 1
            guard slot < entries.count, var entry = entries[slot] else { return }
            entry.time = max(0, elapsed)
            update(&entry)
            entries[slot] = entry
        }
    }

    private static func url(for request: HTTPRequest, base: URL) -> String {
        // Built as text: the request's target is already percent-encoded, and URLComponents
        // setters would either encode it twice or reject it.
        var root = base.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        return root + request.target
    }
}
