"""The status: gathered once from the store and the channels into one typed view
(report.py's `gather` -> view.py's StatusView, every judgement made there), laid out as
`hunter status`'s text and JSON and the chat's สถานะ (text.py), the GitHub job summary
(summary.py) and the status page (hunter/web/status_page.py); history.py: how fresh alerts
came and each source's last days."""
