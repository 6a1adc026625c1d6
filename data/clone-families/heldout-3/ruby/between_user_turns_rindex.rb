log = context[:conversation_history] || []
last_user = log.rindex { |r| r[:speaker] == "user" }
prev_user = last_user && log[0...last_user].rindex { |r| r[:speaker] == "user" }
window = prev_user ? log[(prev_user + 1)...last_user] : []
result = { turn_window: window.map { |r| r[:call_id] }, size: window.length }
