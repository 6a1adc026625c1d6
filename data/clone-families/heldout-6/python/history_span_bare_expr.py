import datetime as dt

fmt = "%Y-%m-%dT%H:%M:%SZ"
times = [dt.datetime.strptime(entry["timestamp"], fmt) for entry in conversation_history]
(times[-1] - times[0]).total_seconds() if len(times) >= 2 else None
