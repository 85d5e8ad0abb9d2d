/// An HTTP request method, such as `GET` or `PATCH`.
///
/// Methods compare by their upper-cased token, so `"get"` and `"GET"` are the same method.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token, upper-cased.
    public let rawValue: String

    /// Creates a method from its token; the token is upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// The method token, such as `GET`.
    public var description: String { rawValue }

    /// `GET`
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`
    public static let options = HTTPMethod(rawValue: "OPTIONS")
}
