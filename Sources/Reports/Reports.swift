import CGSL
import Simulation
