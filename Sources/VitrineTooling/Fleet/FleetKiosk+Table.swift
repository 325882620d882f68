import Vitrine

extension FleetKiosk {
    /// `vitrine fleet ls`: one row per kiosk.
    public static func table(_ kiosks: [FleetKiosk]) -> String {
        TextTable.render(header: ["KIOSK", "STATE", "VERSION", "GROUPS", "URL", "LAST ERROR"], rows: kiosks.map { kiosk in
            [kiosk.id, kiosk.online ? "online" : "offline", kiosk.version, kiosk.groups.joined(separator: ","), kiosk.url, kiosk.lastError]
        })
    }
}
