values = [float(a) for a in args]
squares = list(map(lambda v: v * v, values))
result = {"sum_of_squares": sum(squares), "n": len(values)}
