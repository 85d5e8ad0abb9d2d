import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests that need a real network under a URLSession:
/// one connection at a time, one request per connection (`Connection: close`).
final class LoopbackServer: @unchecked Sendable {
    /// A request as the server read it off the socket.
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [(name: String, value: String)]
        var body: Data

        /// The path, without the query.
        var path: String { String(target.prefix { $0 != "?" }) }

        /// The first value of a header, ignoring the name's case.
        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The body as JSON, if it is a JSON object.
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    }

    /// What the server answers.
    struct Response: Sendable {
        var status: Int
        var headers: [(name: String, value: String)] = []
        var body = Data()

        /// A JSON answer.
        static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> Response {
            Response(status: status, headers: [("Content-Type", "application/json")] + headers, body: Data(text.utf8))
        }
    }

    /// The port it listens on.
    let port: UInt16
    /// `http://127.0.0.1:PORT`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    private let socket: Int32
    private let handler: @Sendable (Request) -> Response
    // Guards `received` and `stopped`.
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Listens on a free port and answers each request with `handler`.
    init(_ handler: @escaping @Sendable (Request) -> Response) throws {
        let socket = try Self.boundSocket()
        guard listen(socket, 64) == 0 else {
            close(socket)
            throw POSIXError(.EADDRINUSE)
        }
        self.socket = socket
        port = Self.port(of: socket)
        self.handler = handler
        Thread { [self] in serve() }.start()
    }

    deinit { stop() }

    /// Every request answered so far, in order.
    var requests: [Request] { lock.withLock { received } }

    /// Stops accepting and closes the socket.
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        done.wait()
        close(socket)
    }

    /// A loopback port nothing listens on: a connection to it is refused.
    static func refusedPort() throws -> UInt16 {
        let socket = try boundSocket()
        defer { close(socket) }
        return port(of: socket)
    }

    private static func boundSocket() throws -> Int32 {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard bound else {
            close(socket)
            throw POSIXError(.EADDRINUSE)
        }
        return socket
    }

    private static func port(of socket: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Accepts until stopped; polls, so that stopping needs nothing of the platform's accept.
    private func serve() {
        defer { done.signal() }
        while !lock.withLock({ stopped }) {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let client = accept(socket, nil, nil)
            guard client >= 0 else { continue }
            answer(client)
            close(client)
        }
    }

    private func answer(_ client: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard let chunk = receive(client) else { return }
            buffer.append(chunk)
        }
        guard let end = buffer.range(of: separator) else { return }
        let lines = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let start = lines.first?.split(separator: " ").map(String.init) ?? []
        guard start.count >= 2 else { return }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var request = Request(method: start[0], target: start[1], headers: headers, body: Data(buffer[end.upperBound...]))
        if request.header("Expect")?.lowercased() == "100-continue" { transmit(client, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
        let length = Int(request.header("Content-Length") ?? "") ?? 0
        while request.body.count < length {
            guard let chunk = receive(client) else { return }
            request.body.append(chunk)
        }
        lock.withLock { received.append(request) }
        let response = handler(request)
        var head = "HTTP/1.1 \(response.status) Status\r\nContent-Length: \(response.body.count)\r\nConnection: close\r\n"
        for field in response.headers { head += "\(field.name): \(field.value)\r\n" }
        transmit(client, Data((head + "\r\n").utf8) + response.body)
    }

    private func receive(_ client: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(client, &bytes, bytes.count, 0)
        return count > 0 ? Data(bytes[0..<count]) : nil
    }

    private func transmit(_ client: Int32, _ data: Data) {
        var sent = 0
        data.withUnsafeBytes { raw in
            while sent < raw.count, let base = raw.baseAddress {
                #if canImport(Glibc)
                    let count = Glibc.send(client, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                #else
                    let count = Darwin.send(client, base + sent, raw.count - sent, 0)
                #endif
                guard count > 0 else { return }
                sent += count
            }
        }
    }
}
