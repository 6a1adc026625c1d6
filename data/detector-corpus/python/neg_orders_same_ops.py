orders = context["orders"]
big = [o for o in orders if o["total"] > 100]
big.sort(key=lambda o: o["total"], reverse=True)
result = "\n".join(f"{o['id']}: {o['total']}" for o in big[:5])
