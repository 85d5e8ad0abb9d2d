import Foundation
import HTTPCore
import ScenarioEngine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLProtocol` a ``URLSessionRecorder`` installs: it sends each request on through a
/// session of its own (the app's configuration without this protocol, so nothing comes back
/// here) and records the exchange.
///
/// URLSession makes protocol instances itself and, with FoundationNetworking, shows them
/// nothing of the configuration, so each installation gets a class of its own that knows its
/// recorder and its session (the same generic-class trick as ``RoutedURLProtocol``).
class RecordingURLProtocol: URLProtocol {
    /// The installation this class serves; `nil` for this base class, which is never installed.
    class var tap: RecordingTap? { nil }

    /// Puts a class of its own for `recorder` first in `configuration`'s protocols.
    static func install(_ recorder: URLSessionRecorder, in configuration: URLSessionConfiguration) {
        // A recorder installed before is replaced, not stacked: one exchange, one record.
        let others = (configuration.protocolClasses ?? []).filter { !($0 is RecordingURLProtocol.Type) }
        guard let forwarding = configuration.copy() as? URLSessionConfiguration else { return }
        // Sent on to the network: never to a scenario that happens to run in the process.
        forwarding.protocolClasses = others.filter { !($0 is ScriptedURLProtocol.Type) }
        let number = RecordingTaps.shared.add(recorder: recorder, configuration: forwarding)
        func make<Number: SlotNumber>(_: Number.Type) -> AnyClass { TappedURLProtocol<Number>.self }
        configuration.protocolClasses = [make(SlotClass.type(for: number))] + others
    }

    override class func canInit(with request: URLRequest) -> Bool {
        guard tap != nil, let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Apple platforms ask this first: an upload task's body never reaches a protocol, so such a
    /// task goes to the network as it would without the recorder, unrecorded.
    override class func canInit(with task: URLSessionTask) -> Bool {
        guard !(task is URLSessionUploadTask), let request = task.currentRequest else { return false }
        return canInit(with: request)
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// The load once started, for `stopLoading`, which URLSession may call from another thread.
    private let load = LoadHolder()

    override func startLoading() {
        guard let tap = Self.tap else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        var request = self.request
        if request.httpBody == nil, let stream = request.httpBodyStream {
            // Read whole: it is both sent on and recorded.
            request.httpBody = HTTPRequest.read(stream)
        }
        #if canImport(FoundationNetworking)
            // FoundationNetworking neither asks `canInit(with: task)` nor shows a protocol an
            // upload task's body: failing is better than sending the request without it.
            if task is URLSessionUploadTask, request.httpBody == nil {
                client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
                return
            }
        #endif
        let load = RecordedLoad(loader: self, client: client, tap: tap)
        self.load.set(load)
        load.start(request)
    }

    override func stopLoading() {
        load.get()?.stop()
    }
}

/// The protocol class of installation `Number`.
final class TappedURLProtocol<Number: SlotNumber>: RecordingURLProtocol {
    override class var tap: RecordingTap? { RecordingTaps.shared.tap(Number.value) }
}

/// One installation: the recorder, and the session that sends requests on.
final class RecordingTap: Sendable {
    let recorder: URLSessionRecorder
    let session: URLSession
    let forwarder: RecordingForwarder
    /// The configuration's `httpAdditionalHeaders`, which the session adds on the wire: recorded
    /// with each request that does not set them itself.
    let additionalHeaders: [HARLog.Field]

    init(recorder: URLSessionRecorder, configuration: URLSessionConfiguration) {
        self.recorder = recorder
        forwarder = RecordingForwarder()
        session = URLSession(configuration: configuration, delegate: forwarder, delegateQueue: nil)
        additionalHeaders = (configuration.httpAdditionalHeaders ?? [:]).map { HARLog.Field("\($0.key)", "\($0.value)") }
            .sorted { $0.name < $1.name }
    }

    func harRequest(_ request: URLRequest) -> HARLog.Request {
        var headers = (request.allHTTPHeaderFields ?? [:]).map { HARLog.Field($0.key, $0.value) }.sorted { $0.name < $1.name }
        for field in additionalHeaders where headers.first(named: field.name) == nil { headers.append(field) }
        // The one cut of a request body: bytes past the limit are never decoded.
        let body = request.httpBody.flatMap { $0.isEmpty ? nil : String(decoding: $0.prefix(recorder.maximumBodySize), as: UTF8.self) }
        return HARLog.Request(
            method: request.httpMethod ?? "GET", url: request.url?.absoluteString ?? "", headers: headers, body: body,
            mimeType: headers.first(named: "Content-Type"))
    }

    static func harResponse(_ response: HTTPURLResponse, body: Data) -> HARLog.Response {
        let headers = response.allHeaderFields.map { HARLog.Field("\($0.key)", "\($0.value)") }.sorted { $0.name < $1.name }
        return HARLog.Response(status: response.statusCode, headers: headers, body: body, mimeType: headers.first(named: "Content-Type"))
    }
}

/// Every installation of the process, by number; kept for the process's life, as the sessions
/// built from their configurations may be.
final class RecordingTaps: @unchecked Sendable {
    static let shared = RecordingTaps()
    // Guards `taps`.
    private let lock = NSLock()
    private var taps: [RecordingTap] = []

    func add(recorder: URLSessionRecorder, configuration: URLSessionConfiguration) -> Int {
        let tap = RecordingTap(recorder: recorder, configuration: configuration)
        return lock.withLock {
            taps.append(tap)
            return taps.count - 1
        }
    }

    func tap(_ number: Int) -> RecordingTap? {
        lock.withLock { number < taps.count ? taps[number] : nil }
    }
}

/// The delegate of a tap's session: hands each task's events to its load.
final class RecordingForwarder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Guards `loads`.
    private let lock = NSLock()
    private var loads: [Int: RecordedLoad] = [:]

    func register(_ load: RecordedLoad, for task: URLSessionTask) {
        lock.withLock { loads[task.taskIdentifier] = load }
    }

    private func load(for task: URLSessionTask) -> RecordedLoad? {
        lock.withLock { loads[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        load(for: dataTask)?.received(data, response: dataTask.response)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Followed here (FoundationNetworking cannot hand a redirect back to the app's session);
        // each hop is an exchange of its own.
        load(for: task)?.redirected(response, to: request)
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let load = lock.withLock { loads.removeValue(forKey: task.taskIdentifier) }
        load?.finished(error: error, response: task.response)
    }
}

/// One request on its way: sent on through the tap's session, recorded, and handed back to the
/// app's session unless that stopped the load. Events come one at a time from the session's
/// delegate queue; `stop` may come from anywhere.
final class RecordedLoad: @unchecked Sendable {
    private let tap: RecordingTap
    // Guards everything below; never held while URLSession or the app is called.
    private let lock = NSLock()
    private var loader: URLProtocol?
    private var client: (any URLProtocolClient)?
    private var task: URLSessionDataTask?
    /// The recorder's id of the exchange being received (a redirect starts another).
    private var id = 0
    private var body = Data()
    private var responded = false
    private var stopped = false

    init(loader: URLProtocol, client: (any URLProtocolClient)?, tap: RecordingTap) {
        self.loader = loader
        self.client = client
        self.tap = tap
    }

    func start(_ request: URLRequest) {
        let id = tap.recorder.begin(tap.harRequest(request), at: Date())
        lock.withLock { self.id = id }
        // Not on the calling queue: FoundationNetworking starts loads on its sessions' shared
        // queue, which making a task of another session waits for.
        DispatchQueue.global().async { [self] in
            let task = tap.session.dataTask(with: request)
            let stopped = lock.withLock {
                self.task = task
                return self.stopped
            }
            tap.forwarder.register(self, for: task)
            task.resume()
            if stopped { task.cancel() }
        }
    }

    /// The app's session no longer wants the answer (its task was cancelled).
    func stop() {
        let task = lock.withLock {
            stopped = true
            loader = nil
            client = nil
            return self.task
        }
        task?.cancel()
    }

    func received(_ data: Data, response: URLResponse?) {
        let limit = tap.recorder.maximumBodySize
        let (target, first) = lock.withLock { () -> ((URLProtocol, any URLProtocolClient)?, URLResponse?) in
            // The one cut of a response body, as it arrives: a large download is never held.
            if body.count < limit { body.append(data.prefix(limit - body.count)) }
            guard let loader, let client else { return (nil, nil) }
            let first = responded ? nil : response
            if first != nil { responded = true }
            return ((loader, client), first)
        }
        guard let (loader, client) = target else { return }
        if let first { client.urlProtocol(loader, didReceive: first, cacheStoragePolicy: .notAllowed) }
        client.urlProtocol(loader, didLoad: data)
    }

    func redirected(_ response: HTTPURLResponse, to request: URLRequest) {
        let now = Date()
        let (previous, received) = lock.withLock { () -> (Int, Data) in
            defer { body = Data() }
            return (id, body)
        }
        tap.recorder.finish(previous, response: RecordingTap.harResponse(response, body: received), at: now)
        let next = tap.recorder.begin(tap.harRequest(request), at: now)
        lock.withLock { id = next }
    }

    func finished(error: (any Error)?, response: URLResponse?) {
        let http = error == nil ? response as? HTTPURLResponse : nil
        let (id, received) = lock.withLock { () -> (Int, Data) in (self.id, body) }
        // Recorded before the app hears of it: the app's next request must not overlap this one.
        tap.recorder.finish(id, response: http.map { RecordingTap.harResponse($0, body: received) }, at: Date())
        let (target, unsent) = lock.withLock { () -> ((URLProtocol, any URLProtocolClient)?, Bool) in
            defer {
                loader = nil
                client = nil
                task = nil
            }
            guard let loader, let client else { return (nil, false) }
            return ((loader, client), !responded)
        }
        guard let (loader, client) = target else { return }
        if let error {
            client.urlProtocol(loader, didFailWithError: error)
        } else if let http {
            if unsent { client.urlProtocol(loader, didReceive: http, cacheStoragePolicy: .notAllowed) }
            client.urlProtocolDidFinishLoading(loader)
        } else {
            client.urlProtocol(loader, didFailWithError: URLError(.badServerResponse))
        }
    }
}

/// A protocol instance's load, set on start and read on stop.
private final class LoadHolder: @unchecked Sendable {
    // Guards `load`.
    private let lock = NSLock()
    private var load: RecordedLoad?

    func set(_ load: RecordedLoad) { lock.withLock { self.load = load } }
    func get() -> RecordedLoad? { lock.withLock { load } }
}
