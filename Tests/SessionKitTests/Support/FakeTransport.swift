import Foundation
import HTTPCore
import SessionKit

/// A scripted backend for one test: routes answer by method and path (first match in
/// declaration order, each with an optional use count), every request is logged, and a route
/// can hold its answers until N requests wait on it, so concurrency is real, not lucky.
actor FakeTransport: HTTPTransport {
    enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(TransportError.Code)

        static func json(_ status: HTTPStatus, _ body: JSONValue, headers: HTTPFields = [:]) -> Reply {
            .response(HTTPResponse(status: status, headers: headers, body: body.encoded()))
        }

        static func text(_ status: HTTPStatus, _ body: String, headers: HTTPFields = [:]) -> Reply {
            .response(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
        }

        static func empty(_ status: HTTPStatus, headers: HTTPFields = [:]) -> Reply {
            .response(HTTPResponse(status: status, headers: headers))
        }

        static func error(_ status: HTTPStatus, code: String? = nil, message: String? = nil, headers: HTTPFields = [:]) -> Reply {
            var body: [String: JSONValue] = ["success": false]
            if let code { body["error_code"] = .string(code) }
            if let message { body["errors"] = [["message": .string(message)]] }
            return .json(status, .object(body), headers: headers)
        }

        static func data(_ data: JSONValue, status: HTTPStatus = .ok) -> Reply {
            .json(status, ["success": true, "data": data])
        }
    }

    private struct Route {
        let method: HTTPMethod
        let path: String
        var remaining: Int?
        var holdUntilPending: Int?
        var held: [CheckedContinuation<Void, Never>] = []
        let respond: @Sendable (HTTPRequest) -> Reply
    }

    private var routes: [Route] = []
    private var requestWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private(set) var requests: [HTTPRequest] = [] {
        didSet {
            let ready = requestWatchers.filter { requests.count >= $0.count }
            requestWatchers.removeAll { requests.count >= $0.count }
            for watcher in ready { watcher.continuation.resume() }
        }
    }

    /// Suspends until at least `count` requests were sent.
    func waitForRequests(_ count: Int) async {
        guard requests.count < count else { return }
        await withCheckedContinuation { requestWatchers.append((count, $0)) }
    }

    /// Adds a route answering with `respond`.
    func on(
        _ method: HTTPMethod, _ path: String, times: Int? = nil, holdUntilPending: Int? = nil,
        _ respond: @escaping @Sendable (HTTPRequest) -> Reply
    ) {
        routes.append(Route(method: method, path: path, remaining: times, holdUntilPending: holdUntilPending, respond: respond))
    }

    /// Adds a route answering always the same.
    func on(_ method: HTTPMethod, _ path: String, times: Int? = nil, holdUntilPending: Int? = nil, reply: Reply) {
        on(method, path, times: times, holdUntilPending: holdUntilPending) { _ in reply }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.append(request)
        guard
            let index = routes.firstIndex(where: { route in
                route.method == request.method && route.path == request.path && (route.remaining ?? 1) > 0
            })
        else {
            throw TransportError(.other, detail: "unscripted \(request.method) \(request.path)")
        }
        routes[index].remaining = routes[index].remaining.map { $0 - 1 }
        let reply = routes[index].respond(request)
        if let threshold = routes[index].holdUntilPending {
            if routes[index].held.count + 1 >= threshold {
                // The last of the group releases everyone; later requests are not held.
                let held = routes[index].held
                routes[index].held = []
                routes[index].holdUntilPending = nil
                for continuation in held { continuation.resume() }
            } else {
                await withCheckedContinuation { routes[index].held.append($0) }
            }
        }
        switch reply {
        case .response(let response): return response
        case .failure(let code): throw TransportError(code)
        }
    }

    /// Releases the requests held on a route and stops holding there.
    func release(_ method: HTTPMethod, _ path: String) {
        for index in routes.indices where routes[index].method == method && routes[index].path == path {
            let held = routes[index].held
            routes[index].held = []
            routes[index].holdUntilPending = nil
            for continuation in held { continuation.resume() }
        }
    }

    func count(_ method: HTTPMethod, _ path: String) -> Int {
        requests.filter { $0.method == method && $0.path == path }.count
    }

    func paths() -> [String] {
        requests.map { "\($0.method) \($0.path)" }
    }
}
