import CGcrypt

/// A libgcrypt S-expression built from its canonical form (length-prefixed atoms, binary
/// safe): Swift cannot call the variadic `gcry_sexp_build`. Owns its handle.
final class SExpression {
    indirect enum Item {
        case atom([UInt8])
        case list([Item])

        static func text(_ text: String) -> Item { .atom(Array(text.utf8)) }
        static func pair(_ name: String, _ bytes: [UInt8]) -> Item { .list([.text(name), .atom(bytes)]) }

        var canonical: [UInt8] {
            switch self {
            case .atom(let bytes): Array(String(bytes.count).utf8) + [UInt8(ascii: ":")] + bytes
            case .list(let items): [UInt8(ascii: "(")] + items.flatMap(\.canonical) + [UInt8(ascii: ")")]
            }
        }
    }

    let handle: gcry_sexp_t

    init(canonical items: [Item]) throws(SigningError) {
        Gcrypt.initialize()
        let bytes = Item.list(items).canonical
        var made: gcry_sexp_t?
        let status = bytes.withUnsafeBytes { gcry_sexp_new(&made, $0.baseAddress, $0.count, 1) }
        guard status == 0, let made else { throw .library("gcry_sexp_new") }
        handle = made
    }

    init(owning handle: gcry_sexp_t) {
        self.handle = handle
    }

    deinit {
        gcry_sexp_release(handle)
    }

    /// The bytes of the first `(name value)` pair anywhere inside.
    func value(of name: String) -> [UInt8]? {
        guard let pair = gcry_sexp_find_token(handle, name, 0) else { return nil }
        defer { gcry_sexp_release(pair) }
        var length = 0
        guard let data = gcry_sexp_nth_data(pair, 1, &length) else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }
}
