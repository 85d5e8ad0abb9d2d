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
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var headers = HTTPFields()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.append(name: name, value: value)
        }
        let outgoing = HTTPRequest(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), path: components?.path ?? url.path,
            query: (components?.queryItems ?? []).map { .init(name: $0.name, value: $0.value) }, headers: headers,
            body: request.httpBody)
        let answer: HTTPResponse
        do {
            answer = try await send(outgoing)
        } catch let error as TransportError {
            throw URLError(error.code.urlErrorCode)
        }
        var fields: [String: String] = [:]
        for field in answer.headers {
            fields[field.name] = fields[field.name].map { "\($0), \(field.value)" } ?? field.value
        }
        guard let response = HTTPURLResponse(url: url, statusCode: answer.status.code, httpVersion: "HTTP/1.1", headerFields: fields) else {
            throw URLError(.badServerResponse)
        }
        return (answer.body, response)
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
