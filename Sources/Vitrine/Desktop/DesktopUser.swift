#if canImport(Glibc)
import Glibc
#endif

/// Who runs the program, from the password database.
public enum DesktopUser {
    public static var login: String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ""
    }

    /// The full name from the GECOS field (up to its first comma), or the login.
    public static var fullName: String {
        guard let entry = getpwuid(getuid()), let gecos = entry.pointee.pw_gecos else { return login }
        let name = String(cString: gecos).split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return name.isEmpty ? login : name
    }
}
