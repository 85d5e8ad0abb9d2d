import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession way in: a `URLProtocol` that hands requests to a run's ``ScriptedBackend``.
///
/// URLSession creates protocol instances itself, so each request names its backend in a
/// header that ``ScriptedURLProtocol/configuration(run:)`` issues per run and that is stripped before the
/// backend sees the request. Routes are per run, so runs in parallel never see each other.
package class ScriptedURLProtocol: URLProtocol {
    /// The header that carries the run's key.
    package static let runHeader = "X-Scenario-Run"
    /// The header that names the request for outside-work tracking.
    static let tagHeader = "X-Scenario-Request"

    fileprivate static var runs: URLSessionRuns { ScenarioHost.shared.runs }

    private static let registration: Void = {
        _ = URLProtocol.registerClass(ScriptedURLProtocol.self)
        #if canImport(FoundationNetworking)
            // FoundationNetworking asks registered classes in the order they came, and
            // `URLSession.shared` keeps the order it found when it was made. Once any URLSession
            // exists, HTTP's own class comes before this one and would take the shared session's
            // requests to the network: each is registered again, after this one.
            for builtIn in URLSessionConfiguration.default.protocolClasses ?? [] {
                URLProtocol.unregisterClass(builtIn)
                _ = URLProtocol.registerClass(builtIn)
            }
        #endif
    }()

    /// Serves requests without a run header from `run` while a scenario runs (`nil` stops).
    static func serveUnrouted(_ run: String?) {
        _ = registration
        runs.serveUnrouted(run)
    }

    /// A configuration whose sessions this protocol serves for `run`: ephemeral, no cache.
    /// Its sessions never reach the network: every request goes to the running scenario's
    /// backend, or fails.
    package static func configuration(run: String) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [SlotClass.protocolClass(forSlot: runs.slot(of: run) ?? 0)]
        configuration.urlCache = nil
        configuration.httpAdditionalHeaders = [runHeader: run]
        return configuration
    }

    /// A URLSession whose requests this protocol serves (ephemeral: no cache, no cookies kept).
    package static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [ScriptedURLProtocol.self]
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    /// The run a request belongs to: its header, or, when the request comes from the running
    /// scenario (its thread, or any thread in a process that runs only scenarios), the run this
    /// class serves or the one unrouted requests go to. Beside other tests, a request from another
    /// thread may be another test's, or a leftover of an ended run whose slot the running one
    /// holds now: it is no run's until it starts loading.
    fileprivate static func run(of request: URLRequest, onRunnerThread: Bool) -> String? {
        if let run = request.value(forHTTPHeaderField: runHeader) { return run }
        guard onRunnerThread || (ScenarioHost.shared.mode == .wholeProcess) else { return nil }
        return ownRun ?? runs.unrouted
    }

    fileprivate static func key(_ request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")"
    }

    /// The run whose sessions this class serves; `nil` for the class `URLSession.shared` uses.
    class var ownRun: String? { nil }

    override public class func canInit(with request: URLRequest) -> Bool {
        // URLSession asks on the caller's thread when a task is resumed: the request is away
        // from here on, before any of URLSession's threads has seen it.
        guard let run = run(of: request, onRunnerThread: Capture.currentScheduler != nil) else { return false }
        ScenarioHost.shared.rememberCurrentTask()
        runs.backend(for: run)?.outside?.announce(key(request))
        return true
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Whether URLSession still wants this load's answer: once it stops the load (the task was
    /// cancelled), the answer must not reach the client, which no longer knows the task.
    private let handOff = HandOff()
    /// Tells the backend the client gave the request up (set once loading starts).
    private var giveUp: (() -> Void)?

    override public func startLoading() {
        let urlRequest = self.request
        // FoundationNetworking adds the configuration's `httpAdditionalHeaders` in its own HTTP
        // loading only, never to the request a protocol sees: add them here as it would, to
        // every request of the load (redirects too), unless the request sets the field itself.
        let sessionHeaders = URLSessionTaskInternals.additionalHeaders(of: task)
        // A routed session names its run in those headers: its class may serve a later run by now.
        let sessionRun = sessionHeaders.first { $0.0 == Self.runHeader }?.1
        let key = Self.key(urlRequest)
        guard
            let run = urlRequest.value(forHTTPHeaderField: Self.runHeader) ?? sessionRun
                ?? Self.run(of: urlRequest, onRunnerThread: true),
            let backend = Self.runs.backend(for: run), let url = urlRequest.url
        else {
            // A session of an ended run: `canInit` announced it to the run its class serves now.
            if let own = Self.ownRun, own != sessionRun { Self.runs.backend(for: own)?.outside?.forget(key) }
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        if Self.refusesDownload(task, urlRequest, backend: backend) {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        let uploadBody = URLSessionTaskInternals.uploadBody(of: task)
        // Our own transport tags its requests and tracks them itself; others are tracked here
        // until URLSession hands the answer on.
        let transportTag = urlRequest.value(forHTTPHeaderField: Self.tagHeader).flatMap { Int($0) }
        let outside = backend.outside
        let tag: Int?
        if let transportTag {
            outside?.forget(key)
            tag = transportTag
        } else {
            tag = outside?.beginLoad(key)
        }
        let ownTag = transportTag == nil ? tag : nil
        // URLProtocol is not Sendable (nor, in older Apple SDKs, its client); URLSession allows
        // calling the client from any thread.
        nonisolated(unsafe) let loader = self
        let task = self.task
        let isHandedOn = Self.handedOnProbe(for: task)
        let isWanted = Self.isWantedProbe(for: task)
        let handOff = self.handOff
        handOff.arm {
            if let ownTag {
                outside?.delivered(ownTag, isHandedOn: isHandedOn)
            } else if let transportTag {
                outside?.passingOn(transportTag)
            }
        }

        // A session of the stack's own gives up on a late answer as URLSession would; requests
        // of `context.transport` wait as long as the direct route does, so both routes agree.
        let timeout = transportTag == nil ? Self.requestTimeout(of: urlRequest, task: task) : nil
        @Sendable func deliver(_ result: Result<HTTPResponse, TransportError>, from url: URL) {
            // Counted before URLSession sees the answer, so its pick-up cannot come first.
            guard handOff.take() else { return }
            switch result {
            case .success(let response):
                guard let http = HTTPURLResponse(response, url: url) else {
                    loader.client?.urlProtocol(loader, didFailWithError: URLError(.badServerResponse))
                    return
                }
                loader.client?.urlProtocol(loader, didReceive: http, cacheStoragePolicy: .notAllowed)
                if !response.body.isEmpty { loader.client?.urlProtocol(loader, didLoad: response.body) }
                loader.client?.urlProtocolDidFinishLoading(loader)
            case .failure(let error):
                loader.client?.urlProtocol(loader, didFailWithError: URLError(error.code.urlErrorCode))
            }
        }
        /// Sends `urlRequest` (the task's, or where a redirect led) and hands its answer on.
        @Sendable func send(_ urlRequest: URLRequest, to url: URL, redirects: Int) {
            var withSessionHeaders = urlRequest
            for (name, value) in sessionHeaders where withSessionHeaders.value(forHTTPHeaderField: name) == nil {
                withSessionHeaders.setValue(value, forHTTPHeaderField: name)
            }
            var request = HTTPRequest(withSessionHeaders, url: url, dropping: [Self.runHeader, Self.tagHeader])
            if request.body == nil, redirects == 0 { request.body = uploadBody }
            let number = backend.handle(request, tag: tag, isWanted: isWanted, timeout: timeout) { result in
                guard case .success(let response) = result else { return deliver(result, from: url) }
                let redirect = Self.redirect(response, from: urlRequest)
                guard redirect != nil || !response.headers.values(for: "Set-Cookie").isEmpty else { return deliver(result, from: url) }
                // The session is found by reflection, so only for an answer that needs it.
                let session = URLSessionTaskInternals.session(of: task)
                let cookies = CookieJar(session: session, request: urlRequest, backend: backend)
                cookies?.keep(response, from: url)
                guard var next = redirect, let target = next.url, let http = HTTPURLResponse(response, url: url) else {
                    return deliver(result, from: url)
                }
                guard redirects < Self.redirectLimit else {
                    return deliver(.failure(TransportError(.other, detail: "too many redirects")), from: url)
                }
                next.setValue(cookies?.header(for: target), forHTTPHeaderField: "Cookie")
                Self.decide(http, next: next, task: task, session: session) { chosen in
                    guard let chosen, let target = chosen.url else { return deliver(result, from: url) }
                    send(chosen, to: target, redirects: redirects + 1)
                }
            }
            handOff.answering(number)
        }
        send(urlRequest, to: url, redirects: 0)
        giveUp = { backend.cancelledByClient(handOff.requestNumber) }
    }

    /// URLSession stopped the load: after the answer, or before it, for a cancelled task, which
    /// URLSession tells the app about itself. Then the request counts as handed back now, and the
    /// backend logs the cancel and drops the answer.
    override public func stopLoading() {
        if handOff.take() { giveUp?() }
    }

    /// How long URLSession waits for the request's answer before it fails the task with
    /// `timedOut`: as FoundationNetworking decides, the request's own `timeoutInterval` when it
    /// set one (one other than the 60 s default), else its session's `timeoutIntervalForRequest`.
    /// The session is found by reflection, so only for an answer that does not come at once.
    private static func requestTimeout(of request: URLRequest, task: URLSessionTask?) -> @Sendable () -> Duration? {
        let own = request.timeoutInterval
        return {
            let seconds = own != 60 ? own : URLSessionTaskInternals.session(of: task)?.configuration.timeoutIntervalForRequest ?? own
            guard seconds > 0, seconds < 1e9 else { return nil }
            return .nanoseconds(Int64(seconds * 1e9))
        }
    }

    /// FoundationNetworking takes a download task's answer only from its own HTTP loading, which
    /// writes the file; from any other protocol it stops the process. Such a task fails with
    /// `unsupportedURL` instead, and the run with it, saying why.
    private static func refusesDownload(_ task: URLSessionTask?, _ request: URLRequest, backend: ScriptedBackend) -> Bool {
        #if canImport(FoundationNetworking)
            guard task is URLSessionDownloadTask else { return false }
            backend.outside?.forget(key(request))
            (Capture.currentScheduler ?? ScenarioHost.shared.runningScenario)?.noteEscape(
                "\(request.httpMethod ?? "GET") \(request.url?.path ?? "") is a download task, which FoundationNetworking cannot take an answer into from a URLProtocol (it would stop the process): on Linux the scenario fails it with URLError(.unsupportedURL); fetch it with a data task (data(for:), dataTask) for scenarios"
            )
            return true
        #else
            return false
        #endif
    }

    /// Whether the task still wants its answer: not once `cancel()` is under way. URLSession stops
    /// the load only after that, and FoundationNetworking stops with a fatal error when a task
    /// it has completed meanwhile (with this answer) is then failed as cancelled.
    private static func isWantedProbe(for task: URLSessionTask?) -> (@Sendable () -> Bool)? {
        guard let task else { return nil }
        return { task.state != .canceling }
    }

    /// Whether URLSession is done handing a task's answer on. FoundationNetworking marks a task
    /// completed only after its completion handler or delegate returned, so any job the answer
    /// resumes has been enqueued by then. Apple's URLSession makes no such promise: there a job
    /// from URLSession's threads counts as the pick-up instead.
    private static func handedOnProbe(for task: URLSessionTask?) -> (@Sendable () -> Bool)? {
        #if canImport(FoundationNetworking)
            guard let task else { return nil }
            return { task.state == .completed }
        #else
            return nil
        #endif
    }

}

/// The protocol of one run's routed configurations. It takes every request of their sessions,
/// from any thread, so none can fall through to URLSession's own HTTP loading: FoundationNetworking
/// does not show a configuration's headers to its protocols, so the configurations of each run the
/// process holds get a class of their own (``SlotNumber``, the run's slot) that knows the run. A
/// slot is reused once its run ended (a class is never freed, and a test bundle runs thousands),
/// so `startLoading` goes by the run the session's own headers name where it can read them. A
/// request of a run that has ended fails with `cannotConnectToHost` without opening a socket.
final class RoutedURLProtocol<Slot: SlotNumber>: ScriptedURLProtocol {
    /// The run holding the slot; a key no run has when none does (slot 0 never is held).
    override class var ownRun: String? { runs.run(inSlot: Slot.value) ?? "ended" }

    override class func canInit(with request: URLRequest) -> Bool {
        // Announced as any scripted request is; taken whatever the answer, so that no request of
        // a routed session reaches URLSession's own HTTP loading.
        _ = super.canInit(with: request)
        return true
    }
}

/// A slot's number as a type, so that the URLProtocol class of a slot can be made at run time:
/// `SlotTwice<SlotTwicePlusOne<SlotZero>>` is 2 × (2 × 0 + 1) = 2.
package protocol SlotNumber {
    static var value: Int { get }
}

enum SlotZero: SlotNumber {
    static var value: Int { 0 }
}

enum SlotTwice<Half: SlotNumber>: SlotNumber {
    static var value: Int { Half.value * 2 }
}

enum SlotTwicePlusOne<Half: SlotNumber>: SlotNumber {
    static var value: Int { Half.value * 2 + 1 }
}

package enum SlotClass {
    /// The protocol class of the run holding `slot` (see ``URLSessionRuns``).
    static func protocolClass(forSlot slot: Int) -> AnyClass {
        func make<Number: SlotNumber>(_: Number.Type) -> AnyClass { RoutedURLProtocol<Number>.self }
        return make(type(for: slot))
    }

    /// The number as a type; ``RecordingURLProtocol`` makes its classes from it too.
    package static func type(for number: Int) -> any SlotNumber.Type {
        guard number > 0 else { return SlotZero.self }
        func wrap<Half: SlotNumber>(_: Half.Type) -> any SlotNumber.Type {
            number % 2 == 0 ? SlotTwice<Half>.self : SlotTwicePlusOne<Half>.self
        }
        return wrap(type(for: number / 2))
    }
}

/// The URLSession route's transport: tags each request with its run's key and its own tag,
/// and keeps it on the run's ``OutsideWork`` list until the answer is back with the caller.
struct RoutedURLSessionTransport: HTTPTransport {
    let run: String
    let inner: URLSessionHTTPTransport
    let outsideWork: OutsideWork

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let tag = outsideWork.begin()
        defer { outsideWork.end(tag) }
        var tagged = request
        tagged.headers[ScriptedURLProtocol.runHeader] = run
        tagged.headers[ScriptedURLProtocol.tagHeader] = String(tag)
        return try await inner.send(tagged)
    }
}
