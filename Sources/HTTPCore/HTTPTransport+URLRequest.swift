import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// Sends a `URLRequest` and answers as `URLSession.data(for:)` does: for a stack whose seam
    /// takes `URLRequest`s, a driver hands it the scenario's transport through this. Headers go
    /// in name order; repeated response headers are joined with ", " as URLSession joins them,
    /// so both routes look alike. A transport failure is the `URLError` URLSession would throw.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        guard let url = request.url else { throw URLError(.badURL) }
        let answer: HTTPResponse
        do {
            answer = try await send(HTTPRequest(request, url: url))
        } catch let error as TransportError {
            throw URLError(error.code.urlErrorCode)
        }
        guard let response = HTTPURLResponse(answer, url: url) else { throw URLError(.badServerResponse) }
        return (answer.body, response)
    }
}

extension HTTPRequest {
    /// A `URLRequest` as a request: headers in name order (less those `dropping` names,
    /// compared without case), the path percent-decoded, the body whether set whole or as a stream.
    public init(_ request: URLRequest, url: URL, dropping dropped: [String] = []) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var headers = HTTPFields()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key })
        where !dropped.contains(where: { name.caseInsensitiveCompare($0) == .orderedSame }) {
            headers.append(name: name, value: value)
        }
        self.init(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            path: components?.percentEncodedPath.removingPercentEncoding ?? url.path,
            query: (components?.queryItems ?? []).map { .init(name: $0.name, value: $0.value) },
            headers: headers,
            body: request.httpBody ?? request.httpBodyStream.map(Self.read))
    }

    /// The whole of a body stream (URLSession hands protocols `httpBody` as a stream on Apple platforms).
    public static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}

extension HTTPURLResponse {
    /// `response` as URLSession shows it: one value per header name, repeats joined with ", "
    /// (as RFC 9110 allows and URLSession does).
    public convenience init?(_ response: HTTPResponse, url: URL) {
        var fields: [String: String] = [:]
        for field in response.headers { fields[field.name] = fields[field.name].map { "\($0), \(field.value)" } ?? field.value }
        self.init(url: url, statusCode: response.status.code, httpVersion: "HTTP/1.1", headerFields: fields)
    }
}

extension TransportError.Code {
    /// The `URLError` code URLSession gives for the same failure.
    public var urlErrorCode: URLError.Code {
        switch self {
        case .timedOut: .timedOut
        case .notConnectedToInternet: .notConnectedToInternet
        case .networkConnectionLost: .networkConnectionLost
        case .cannotConnectToHost: .cannotConnectToHost
        case .cancelled: .cancelled
        case .badServerResponse: .badServerResponse
        case .other: .unknown
        }
    }
}
