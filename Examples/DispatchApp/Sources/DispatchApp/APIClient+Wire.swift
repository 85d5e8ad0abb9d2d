import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// An HTTP answer as the client reads it: status first, body second.
    struct Reply: Sendable {
        var status: Int
        var body: Data
        /// Header names lowercased.
        var headers: [String: String]

        /// The contract's `error_code`, when the body has one.
        var errorCode: String? { APIClient.decode(ErrorBody.self, from: body)?.errorCode }
        /// The server's `errors[0].message`, when the body has one.
        var message: String? { APIClient.decode(ErrorBody.self, from: body)?.errors?.first?.message }
    }

    /// Sends one request; `completion` runs on whatever thread the loader answers on.
    func load(
        _ method: String, _ path: String, body: Data?, bearer: String?, completion: @escaping @Sendable (Result<Reply, APIError>) -> Void
    ) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        loader.load(request) { data, response, error in
            guard error == nil, let http = response as? HTTPURLResponse else { return completion(.failure(.network)) }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            completion(.success(Reply(status: http.statusCode, body: data ?? Data(), headers: headers)))
        }
    }

    /// The error a non-success reply means.
    func failure(_ reply: Reply) -> APIError {
        if reply.status == 429 || reply.status == 503 {
            return .rateLimited(
                retryAfter: RetryAfter.seconds(from: reply.headers["retry-after"], now: now()), status: reply.status,
                message: reply.message ?? AppAlert.rateLimitFallbackMessage)
        }
        return .server(status: reply.status, code: reply.errorCode)
    }

    /// The `data` member of the contract's success envelope, or `nil` for any other body.
    static func decode<Payload: Decodable>(_ type: Payload.Type, from body: Data) -> Payload? {
        (try? JSONDecoder().decode(Envelope<Payload>.self, from: body))?.data
    }

    static func decode(_ type: ErrorBody.Type, from body: Data) -> ErrorBody? {
        try? JSONDecoder().decode(ErrorBody.self, from: body)
    }

    // Sorted keys: a dictionary's order changes from one run to the next, a request body must not.
    static func encode(_ fields: [String: String]) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try? encoder.encode(fields)
    }

    // The contract's JSON shapes; every member optional, so an odd body reads as "nothing usable".
    struct Envelope<Payload: Decodable>: Decodable {
        var data: Payload?
    }

    struct ErrorBody: Decodable {
        struct Item: Decodable { var message: String? }
        var errorCode: String?
        var errors: [Item]?
        enum CodingKeys: String, CodingKey {
            case errorCode = "error_code"
            case errors
        }

        // Member by member: an `errors` of another shape must not hide the `error_code`.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            errorCode = try? container.decode(String.self, forKey: .errorCode)
            errors = try? container.decode([Item].self, forKey: .errors)
        }
    }

    struct TokenPair: Decodable {
        var accessToken: String
        var refreshToken: String?
        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
        }
    }

    struct SignIn: Decodable {
        var accessToken: String
        var refreshToken: String?
        var user: AppUser
        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case user
        }
    }
}
