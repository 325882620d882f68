/// The Swift runtime's name of an enum value's case (what `print` shows for an enum with no
/// description of its own); nil for anything but an enum. It reads the type's metadata,
/// so it works whatever `description` the error has.
@_silgen_name("swift_EnumCaseName")
private func enumCaseName<Value>(_ value: Value) -> UnsafePointer<CChar>?

extension ScriptMessageError {
    /// The code a thrown error reaches the page with: `TypeName.caseName` for an enum
    /// (`CartError.outOfStock`, payload or not), the type's name for anything else.
    public static func code(of error: any Error) -> String {
        func code<Failure: Error>(_ error: Failure) -> String {
            let typeName = String(describing: Failure.self)
            guard let caseName = enumCaseName(error) else { return typeName }
            return typeName + "." + String(cString: caseName)
        }
        return code(error)
    }
}
